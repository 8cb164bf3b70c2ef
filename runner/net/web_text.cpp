#include "net/web_text.h"

#include "base/text.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <utility>

namespace agent_run {

namespace {

// Elements whose content is never shown.
constexpr std::array<std::string_view, 9> k_invisible = {"script", "style",  "noscript", "template", "svg",
                                                         "head",   "iframe", "object",   "canvas"};
// Elements that start and end a line of their own.
constexpr std::array<std::string_view, 30> k_blocks = {
    "p",      "div",        "br",      "hr",      "ul",      "ol",    "dl",    "dt",      "dd",   "table",
    "tr",     "section",    "article", "header",  "footer",  "nav",   "aside", "main",    "form", "blockquote",
    "figure", "figcaption", "address", "details", "summary", "tbody", "thead", "caption", "body", "html"};

constexpr std::pair<std::string_view, std::string_view> k_named_entities[] = {
    {"amp", "&"},        {"lt", "<"},         {"gt", ">"},         {"quot", "\""},       {"apos", "'"},
    {"nbsp", " "},       {"ndash", "\u2013"}, {"mdash", "\u2014"}, {"hellip", "\u2026"}, {"copy", "\u00a9"},
    {"reg", "\u00ae"},   {"laquo", "\u00ab"}, {"raquo", "\u00bb"}, {"lsquo", "\u2018"},  {"rsquo", "\u2019"},
    {"ldquo", "\u201c"}, {"rdquo", "\u201d"}, {"bull", "\u2022"},  {"middot", "\u00b7"}, {"times", "\u00d7"}};

template <std::size_t N>
bool one_of(std::string_view name, const std::array<std::string_view, N>& names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

/// One tag: its lower-case name, whether it closes, and its attributes' raw text.
struct Tag {
  std::string name;
  bool closing = false;
  std::string_view attributes;
};

Tag parse_tag(std::string_view inside) {
  Tag tag;
  std::size_t i = 0;
  if (i < inside.size() && inside[i] == '/') {
    tag.closing = true;
    ++i;
  }
  std::size_t start = i;
  while (i < inside.size() && (std::isalnum(static_cast<unsigned char>(inside[i])) || inside[i] == '-')) ++i;
  tag.name = to_lower(inside.substr(start, i - start));
  tag.attributes = inside.substr(i);
  return tag;
}

/// The value of attribute `name` (quoted or bare), or empty.
std::string attribute(std::string_view attributes, std::string_view name) {
  std::string lowered = to_lower(attributes);
  for (std::size_t at = lowered.find(name); at != std::string::npos; at = lowered.find(name, at + 1)) {
    bool starts_word = at == 0 || std::isspace(static_cast<unsigned char>(lowered[at - 1]));
    std::size_t i = at + name.size();
    while (i < lowered.size() && lowered[i] == ' ') ++i;
    if (!starts_word || i >= lowered.size() || lowered[i] != '=') continue;
    ++i;
    while (i < lowered.size() && lowered[i] == ' ') ++i;
    char quote = i < attributes.size() && (attributes[i] == '"' || attributes[i] == '\'') ? attributes[i] : 0;
    std::size_t begin = quote ? i + 1 : i;
    std::size_t end = quote ? attributes.find(quote, begin) : attributes.find_first_of(" \t\n>", begin);
    return decode_html_entities(
        attributes.substr(begin, (end == std::string_view::npos ? attributes.size() : end) - begin));
  }
  return {};
}

/// Collects text, collapsing spaces outside <pre> and keeping at most one blank line in a row.
class TextWriter {
 public:
  void text(std::string_view piece, bool preformatted) {
    for (char c : piece) {
      bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
      if (preformatted) {
        m_out += c;
        m_pending_space = false;
      } else if (space) {
        m_pending_space = !m_out.empty() && m_out.back() != '\n';
      } else {
        if (m_pending_space) m_out += ' ';
        m_pending_space = false;
        m_out += c;
      }
    }
  }
  void line_break(int blank_lines = 0) {
    m_pending_space = false;
    while (!m_out.empty() && m_out.back() == ' ') m_out.pop_back();
    if (m_out.empty()) return;
    int wanted = 1 + blank_lines;
    int have = 0;
    for (auto it = m_out.rbegin(); it != m_out.rend() && *it == '\n' && have < 2; ++it) ++have;
    for (; have < wanted; ++have) m_out += '\n';
  }
  std::string finish() {
    while (!m_out.empty() && (m_out.back() == '\n' || m_out.back() == ' ')) m_out.pop_back();
    if (!m_out.empty()) m_out += '\n';
    return m_out;
  }

 private:
  std::string m_out;
  bool m_pending_space = false;
};

/// Turns the tags into text structure; tracks invisible and preformatted regions.
class HtmlReader {
 public:
  explicit HtmlReader(std::string_view html) : m_html(html) {}

  std::string read() {
    std::string title = find_title();
    if (!title.empty()) {
      m_writer.text("# " + title, false);
      m_writer.line_break(1);
    }
    std::size_t i = 0;
    while (i < m_html.size()) i = m_html[i] == '<' ? read_markup(i) : read_text(i);
    return m_writer.finish();
  }

 private:
  std::string find_title() const {
    std::string lowered = to_lower(m_html.substr(0, std::min<std::size_t>(m_html.size(), 65536)));
    std::size_t open = lowered.find("<title");
    std::size_t start = open == std::string::npos ? open : lowered.find('>', open);
    std::size_t end = start == std::string::npos ? start : lowered.find("</title", start);
    if (end == std::string::npos) return {};
    return std::string(trim(decode_html_entities(m_html.substr(start + 1, end - start - 1))));
  }

  std::size_t read_text(std::size_t i) {
    std::size_t end = std::min(m_html.find('<', i), m_html.size());
    if (m_invisible.empty()) m_writer.text(decode_html_entities(m_html.substr(i, end - i)), m_pre > 0);
    return end;
  }

  std::size_t read_markup(std::size_t i) {
    if (m_html.compare(i, 4, "<!--") == 0) {
      std::size_t end = m_html.find("-->", i + 4);
      return end == std::string_view::npos ? m_html.size() : end + 3;
    }
    std::size_t end = m_html.find('>', i);
    if (end == std::string_view::npos) return m_html.size();
    Tag tag = parse_tag(m_html.substr(i + 1, end - i - 1));
    if (tag.name.empty()) {  // <!DOCTYPE>, <?xml?> or a stray '<'
      if (m_html[i + 1] != '!' && m_html[i + 1] != '?' && m_invisible.empty()) m_writer.text("<", m_pre > 0);
      return m_html[i + 1] == '!' || m_html[i + 1] == '?' ? end + 1 : i + 1;
    }
    apply(tag);
    return end + 1;
  }

  void apply(const Tag& tag) {
    if (one_of(tag.name, k_invisible)) {
      bool self_closing = trim(tag.attributes).ends_with('/');
      if (!tag.closing && !self_closing) m_invisible.push_back(tag.name);
      else if (tag.closing && !m_invisible.empty() && m_invisible.back() == tag.name) m_invisible.pop_back();
      return;
    }
    if (!m_invisible.empty()) return;
    if (tag.name == "pre") {
      m_pre += tag.closing ? (m_pre > 0 ? -1 : 0) : 1;
      m_writer.line_break();
    } else if (tag.name.size() == 2 && tag.name[0] == 'h' && tag.name[1] >= '1' && tag.name[1] <= '6') {
      m_writer.line_break(1);
      if (!tag.closing) m_writer.text(std::string(static_cast<std::size_t>(tag.name[1] - '0'), '#') + " ", false);
    } else if (tag.name == "li") {
      m_writer.line_break();
      if (!tag.closing) m_writer.text("- ", false);
    } else if (tag.name == "a") {
      link(tag);
    } else if (tag.name == "td" || tag.name == "th") {
      if (!tag.closing) m_writer.text(" | ", false);
    } else if (one_of(tag.name, k_blocks)) {
      m_writer.line_break(tag.name == "p" || tag.name == "table" ? 1 : 0);
    }
  }

  void link(const Tag& tag) {
    if (!tag.closing) {
      m_href = attribute(tag.attributes, "href");
      return;
    }
    if (m_href.starts_with("http://") || m_href.starts_with("https://")) m_writer.text(" (" + m_href + ")", false);
    m_href.clear();
  }

  std::string_view m_html;
  TextWriter m_writer;
  std::vector<std::string> m_invisible;  // open invisible elements
  int m_pre = 0;
  std::string m_href;
};

/// The code point of a numeric reference body (`#39`, `#x27`), or 0 when it is not one.
unsigned numeric_reference(std::string_view body) {
  if (body.size() < 2 || body[0] != '#') return 0;
  bool hex = body[1] == 'x' || body[1] == 'X';
  std::string digits(body.substr(hex ? 2 : 1));
  if (digits.empty()) return 0;
  char* end = nullptr;
  unsigned long value = std::strtoul(digits.c_str(), &end, hex ? 16 : 10);
  if (*end != '\0' || value == 0 || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) return 0;
  return static_cast<unsigned>(value);
}

}  // namespace

std::string decode_html_entities(std::string_view text) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t semicolon = text[i] == '&' ? text.find(';', i) : std::string_view::npos;
    if (semicolon == std::string_view::npos || semicolon - i > 10) {
      out += text[i++];
      continue;
    }
    std::string_view body = text.substr(i + 1, semicolon - i - 1);
    if (unsigned code = numeric_reference(body)) {
      append_utf8(out, code);
      i = semicolon + 1;
      continue;
    }
    auto named = std::find_if(std::begin(k_named_entities), std::end(k_named_entities),
                              [&](const auto& entity) { return entity.first == body; });
    if (named != std::end(k_named_entities)) {
      out += named->second;
      i = semicolon + 1;
    } else {
      out += text[i++];
    }
  }
  return out;
}

std::string html_to_text(std::string_view html) { return HtmlReader(html).read(); }

}  // namespace agent_run
