#include "search/glob_pattern.h"

#include <re2/re2.h>

#include <cstdio>
#include <optional>
#include <vector>

namespace agent_run {

struct GlobPattern::Regex {
  explicit Regex(const std::string& pattern, const RE2::Options& options) : re(pattern, options) {}
  RE2 re;
};

namespace {

/// One piece of a parsed glob, as globset's parser makes them.
struct Token {
  enum class Kind {
    literal,
    any,
    zero_or_more,
    recursive_prefix,
    recursive_suffix,
    recursive_zero_or_more,
    klass,
    alternates
  };
  Kind kind = Kind::literal;
  std::string text;                                         // literal: one character (UTF-8)
  bool negated = false;                                     // klass
  std::vector<std::pair<std::string, std::string>> ranges;  // klass: first and last character of each range
  std::vector<std::vector<Token>> branches;                 // alternates
};

using Tokens = std::vector<Token>;

/// Parses a glob into tokens with the rules of globset's Parser (literal separator, backslash escapes,
/// no nested alternates).
class GlobParser {
 public:
  explicit GlobParser(std::string_view glob) : m_glob(glob) { m_branches.emplace_back(); }

  Expected<Tokens> parse() {
    while (auto c = bump()) {
      Expected<void> step = parse_one(*c);
      if (!step) return step.error();
    }
    if (m_branches.size() > 1) return fail("an alternate group '{' is not closed");
    return std::move(m_branches.back());
  }

 private:
  Expected<void> parse_one(const std::string& c) {
    if (c == "?") return push(Token{Token::Kind::any});
    if (c == "*") return parse_star();
    if (c == "[") return parse_class();
    if (c == "{") {
      if (m_open_alternate) return fail("nested alternate groups are not supported");
      m_open_alternate = m_branches.size();
      m_branches.emplace_back();
      return {};
    }
    if (c == "}") {
      if (!m_open_alternate) return fail("'}' closes no alternate group");
      Token alternates{Token::Kind::alternates};
      alternates.branches.assign(m_branches.begin() + static_cast<std::ptrdiff_t>(*m_open_alternate), m_branches.end());
      m_branches.resize(*m_open_alternate);
      m_open_alternate.reset();
      return push(std::move(alternates));
    }
    if (c == "," && m_open_alternate) {
      m_branches.emplace_back();
      return {};
    }
    if (c == "\\") {
      auto escaped = bump();
      if (!escaped) return fail("the glob ends with a lone '\\'");
      return push(literal(*escaped));
    }
    return push(literal(c));
  }

  Expected<void> parse_star() {
    const std::optional<std::string> prev = m_prev;
    if (peek() != "*") return push(Token{Token::Kind::zero_or_more});
    bump();
    auto twice = [&] {
      m_branches.back().push_back(Token{Token::Kind::zero_or_more});
      return push(Token{Token::Kind::zero_or_more});
    };
    if (m_branches.back().empty()) {
      if (!peek().empty() && peek() != "/") return twice();
      bump();  // the separator, or nothing at the end
      return push(Token{Token::Kind::recursive_prefix});
    }
    if (prev != "/") {
      if (!m_open_alternate || (prev != "," && prev != "{")) return twice();
    }
    bool is_suffix = false;
    if (peek().empty()) {
      is_suffix = true;
    } else if ((peek() == "," || peek() == "}") && m_open_alternate) {
      is_suffix = true;
    } else if (peek() == "/") {
      bump();
    } else {
      return twice();
    }
    Token last = m_branches.back().back();
    m_branches.back().pop_back();
    if (last.kind == Token::Kind::recursive_prefix || last.kind == Token::Kind::recursive_suffix) {
      return push(std::move(last));
    }
    return push(Token{is_suffix ? Token::Kind::recursive_suffix : Token::Kind::recursive_zero_or_more});
  }

  Expected<void> parse_class() {
    Token klass{Token::Kind::klass};
    if (peek() == "!" || peek() == "^") {
      bump();
      klass.negated = true;
    }
    bool first = true;
    bool in_range = false;
    for (;;) {
      auto c = bump();
      if (!c) return fail("a character class '[' is not closed");
      if (*c == "]" && !first) break;
      if (*c == "-" && !first && !in_range) {
        in_range = true;
      } else if (in_range) {
        if (*c < klass.ranges.back().first)
          return fail("the range '" + klass.ranges.back().first + "-" + *c + "' is backwards");
        klass.ranges.back().second = *c;
        in_range = false;
      } else {
        klass.ranges.emplace_back(*c, *c);
      }
      first = false;
    }
    if (in_range) klass.ranges.emplace_back("-", "-");
    return push(std::move(klass));
  }

  static Token literal(std::string c) {
    Token token{Token::Kind::literal};
    token.text = std::move(c);
    return token;
  }

  Expected<void> push(Token token) {
    m_branches.back().push_back(std::move(token));
    return {};
  }

  Error fail(const std::string& what) const {
    return make_error("invalid glob '" + std::string(m_glob) + "': " + what);
  }

  /// The next character (a whole UTF-8 sequence), or nullopt at the end.
  std::optional<std::string> bump() {
    m_prev = m_current;
    if (m_at >= m_glob.size()) {
      m_current.reset();
      return std::nullopt;
    }
    std::size_t length = char_length(m_at);
    m_current = std::string(m_glob.substr(m_at, length));
    m_at += length;
    return m_current;
  }

  std::string peek() const {
    return m_at >= m_glob.size() ? std::string() : std::string(m_glob.substr(m_at, char_length(m_at)));
  }

  std::size_t char_length(std::size_t at) const {
    unsigned char lead = static_cast<unsigned char>(m_glob[at]);
    std::size_t length = lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    return std::min(length, m_glob.size() - at);
  }

  std::string_view m_glob;
  std::size_t m_at = 0;
  std::optional<std::string> m_prev;
  std::optional<std::string> m_current;
  std::vector<Tokens> m_branches;
  std::optional<std::size_t> m_open_alternate;  // index in m_branches where the open group starts
};

/// A character as a literal of a Latin-1 (byte) regular expression, escaped as globset escapes it.
std::string escaped(const std::string& c) {
  std::string out;
  for (char ch : c) {
    unsigned char byte = static_cast<unsigned char>(ch);
    bool plain =
        (byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z') || (byte >= '0' && byte <= '9') || byte == '_';
    if (plain) {
      out += ch;
    } else if (byte >= 0x80 || byte < 0x20) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", byte);
      out += hex;
    } else {
      out += '\\';
      out += ch;
    }
  }
  return out;
}

void append_regex(const Tokens& tokens, std::string& re) {
  for (const Token& token : tokens) {
    switch (token.kind) {
      case Token::Kind::literal: re += escaped(token.text); break;
      case Token::Kind::any: re += "[^/]"; break;
      case Token::Kind::zero_or_more: re += "[^/]*"; break;
      case Token::Kind::recursive_prefix: re += "(?:/?|.*/)"; break;
      case Token::Kind::recursive_suffix: re += "/.*"; break;
      case Token::Kind::recursive_zero_or_more: re += "(?:/|/.*/)"; break;
      case Token::Kind::klass:
        re += token.negated ? "[^" : "[";
        for (const auto& [first, last] : token.ranges) {
          re += escaped(first);
          if (first != last) re += "-" + escaped(last);
        }
        re += "]";
        break;
      case Token::Kind::alternates: {
        std::vector<std::string> parts;
        for (const Tokens& branch : token.branches) {
          std::string part;
          append_regex(branch, part);
          if (!part.empty()) parts.push_back(part);
        }
        if (parts.empty()) break;
        re += "(?:";
        for (std::size_t i = 0; i < parts.size(); ++i) re += (i ? "|" : "") + parts[i];
        re += ")";
        break;
      }
    }
  }
}

/// The concatenated literals of `tokens` from `first` on, or nullopt if any is not a literal (or is a '/').
std::optional<std::string> plain_literal(const Tokens& tokens, std::size_t first, bool allow_slash) {
  std::string text;
  for (std::size_t i = first; i < tokens.size(); ++i) {
    if (tokens[i].kind != Token::Kind::literal) return std::nullopt;
    if (!allow_slash && tokens[i].text == "/") return std::nullopt;
    text += tokens[i].text;
  }
  return text;
}

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

}  // namespace

Expected<GlobPattern> GlobPattern::compile(std::string_view glob) {
  auto tokens = GlobParser(glob).parse();
  if (!tokens) return tokens.error();
  GlobPattern pattern;
  pattern.m_text = std::string(glob);
  const bool prefixed = !tokens->empty() && tokens->front().kind == Token::Kind::recursive_prefix;
  if (auto literal = plain_literal(*tokens, 0, true)) {
    pattern.m_strategy = Strategy::literal;
    pattern.m_literal = *literal;
    return pattern;
  }
  if (prefixed && tokens->size() > 1) {
    auto base = plain_literal(*tokens, 1, false);
    if (base && !base->empty()) {
      pattern.m_strategy = Strategy::basename_literal;
      pattern.m_literal = *base;
      return pattern;
    }
    if ((*tokens)[1].kind == Token::Kind::zero_or_more) {
      auto extension = plain_literal(*tokens, 2, false);
      if (extension && !extension->empty()) {
        pattern.m_strategy = Strategy::extension;
        pattern.m_literal = *extension;
        return pattern;
      }
    }
  }
  std::string re = "^";
  if (tokens->size() == 1 && prefixed) {
    re += ".*";
  } else {
    append_regex(*tokens, re);
  }
  re += "$";
  RE2::Options options;
  options.set_encoding(RE2::Options::EncodingLatin1);
  options.set_log_errors(false);
  auto compiled = std::make_shared<const Regex>(re, options);
  if (!compiled->re.ok()) {
    return make_error("invalid glob '" + std::string(glob) + "': " + compiled->re.error());
  }
  pattern.m_regex = std::move(compiled);
  return pattern;
}

bool GlobPattern::matches(std::string_view path) const {
  switch (m_strategy) {
    case Strategy::literal: return path == m_literal;
    case Strategy::basename_literal:
      return path == m_literal || (ends_with(path, m_literal) && path[path.size() - m_literal.size() - 1] == '/');
    case Strategy::extension: return ends_with(path, m_literal);
    case Strategy::regex: break;
  }
  return RE2::FullMatch(re2::StringPiece(path.data(), path.size()), m_regex->re);
}

}  // namespace agent_run
