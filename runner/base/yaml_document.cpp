#include "base/yaml_document.h"

#include "base/duration.h"
#include "base/text.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <limits>
#include <sstream>

namespace agent_run {

const YamlNode* YamlNode::find(std::string_view key) const {
  for (const YamlEntry& entry : entries) {
    if (entry.key == key) return &entry.value;
  }
  return nullptr;
}

namespace {

/// yaml-cpp marks are 0-based; a few exceptions carry none.
YamlMark to_mark(const YAML::Mark& mark) {
  return mark.is_null() ? YamlMark{} : YamlMark{mark.line + 1, mark.column + 1};
}

/// Byte offsets of the start of each line, to look at the raw text behind a mark.
class LineIndex {
 public:
  explicit LineIndex(std::string_view text) : m_text(text) {
    m_starts.push_back(0);
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') m_starts.push_back(i + 1);
    }
  }

  /// The text from a yaml-cpp mark (0-based line and column) to the end of the file.
  std::string_view from(const YAML::Mark& mark) const {
    if (mark.line < 0 || static_cast<std::size_t>(mark.line) >= m_starts.size()) return {};
    std::size_t offset = m_starts[static_cast<std::size_t>(mark.line)] + static_cast<std::size_t>(mark.column);
    return offset < m_text.size() ? m_text.substr(offset) : std::string_view{};
  }

 private:
  std::string_view m_text;
  std::vector<std::size_t> m_starts;
};

/// The text after `&anchor` and `!tag` properties and the spaces between them.
std::string_view skip_properties(std::string_view text) {
  while (!text.empty() && (text[0] == '&' || text[0] == '!')) {
    std::size_t end = text.find_first_of(" \t\r\n");
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end);
    std::size_t next = text.find_first_not_of(" \t\r\n");
    text = next == std::string_view::npos ? std::string_view{} : text.substr(next);
  }
  return text;
}

/// True when `text` starts with a quoted scalar that has no closing quote (yaml-cpp 0.7 accepts it).
bool is_unterminated_quote(std::string_view text) {
  text = skip_properties(text);
  if (text.empty() || (text[0] != '"' && text[0] != '\'')) return false;
  char quote = text[0];
  for (std::size_t i = 1; i < text.size(); ++i) {
    if (quote == '"' && text[i] == '\\') {
      ++i;
    } else if (text[i] == quote) {
      if (quote == '\'' && i + 1 < text.size() && text[i + 1] == '\'') {
        ++i;  // '' is an escaped quote inside '...'
      } else {
        return false;
      }
    }
  }
  return true;
}

bool is_explicit_null(std::string_view text) {
  for (std::string_view word : {"~", "null", "Null", "NULL"}) {
    if (text.substr(0, word.size()) == word) return true;
  }
  return false;
}

/// Builds our tree from yaml-cpp's parse events, recording duplicate keys, anchors and aliases.
class TreeBuilder : public YAML::EventHandler {
 public:
  TreeBuilder(const LineIndex& lines, std::vector<YamlProblem>& problems) : m_lines(lines), m_problems(problems) {}

  std::optional<YamlNode>& root() { return m_root; }
  YamlMark document_mark() const { return m_document_mark; }
  /// The problem that makes the whole tree untrustworthy: a quote yaml-cpp never saw closed.
  const std::optional<YamlProblem>& unterminated_quote() const { return m_unterminated_quote; }

  void OnDocumentStart(const YAML::Mark& mark) override { m_document_mark = to_mark(mark); }
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    YamlNode node;
    node.mark = to_mark(mark);
    bool is_value = !m_stack.empty() && m_stack.back().node.is_map() && m_stack.back().key;
    if (is_value && !is_explicit_null(m_lines.from(mark))) {
      node.mark = m_stack.back().key->mark;  // `key:` with nothing after it: yaml-cpp marks the next token
    }
    check_anchor(mark, anchor);
    add(std::move(node));
  }

  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override {
    m_problems.push_back({to_mark(mark), "YAML aliases (*name) are not supported"});
    YamlNode node;
    node.mark = to_mark(mark);
    add(std::move(node));
  }

  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    if (tag != "?" && is_unterminated_quote(m_lines.from(mark))) {
      std::string quote(1, skip_properties(m_lines.from(mark))[0]);
      m_unterminated_quote =
          YamlProblem{to_mark(mark), "YAML syntax error: unterminated quoted string (no closing " + quote + ")"};
    }
    check_anchor(mark, anchor);
    YamlNode node;
    node.kind = YamlNode::Kind::scalar;
    node.mark = to_mark(mark);
    node.scalar = value;
    node.style = tag == "?" ? ScalarStyle::plain : ScalarStyle::quoted;
    add(std::move(node));
  }

  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    open(YamlNode::Kind::sequence, mark, anchor);
  }
  void OnSequenceEnd() override { close(); }

  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    open(YamlNode::Kind::map, mark, anchor);
  }
  void OnMapEnd() override { close(); }

 private:
  struct Frame {
    YamlNode node;
    std::optional<YamlNode> key;  // a map's key waiting for its value
  };

  void check_anchor(const YAML::Mark& mark, YAML::anchor_t anchor) {
    if (anchor != YAML::NullAnchor) {
      m_problems.push_back({to_mark(mark), "YAML anchors (&name) are not supported"});
    }
  }

  void open(YamlNode::Kind kind, const YAML::Mark& mark, YAML::anchor_t anchor) {
    check_anchor(mark, anchor);
    Frame frame;
    frame.node.kind = kind;
    frame.node.mark = to_mark(mark);
    m_stack.push_back(std::move(frame));
  }

  void close() {
    YamlNode node = std::move(m_stack.back().node);
    m_stack.pop_back();
    add(std::move(node));
  }

  void add(YamlNode node) {
    if (m_stack.empty()) {
      m_root = std::move(node);
      return;
    }
    Frame& top = m_stack.back();
    if (top.node.is_sequence()) {
      top.node.items.push_back(std::move(node));
    } else if (!top.key) {
      top.key = std::move(node);
    } else {
      add_entry(top.node, std::move(*top.key), std::move(node));
      top.key.reset();
    }
  }

  void add_entry(YamlNode& map, YamlNode key, YamlNode value) {
    if (!key.is_scalar()) {
      m_problems.push_back({key.mark, "a map key must be a string, got " + describe_yaml(key)});
      return;
    }
    for (const YamlEntry& entry : map.entries) {
      if (entry.key == key.scalar) {
        m_problems.push_back({key.mark, "duplicate key '" + key.scalar + "' (first at " +
                                            std::to_string(entry.key_mark.line) + ":" +
                                            std::to_string(entry.key_mark.column) + ")"});
        return;
      }
    }
    map.entries.push_back(YamlEntry{std::move(key.scalar), key.mark, std::move(value)});
  }

  const LineIndex& m_lines;
  std::vector<YamlProblem>& m_problems;
  std::vector<Frame> m_stack;
  std::optional<YamlNode> m_root;
  YamlMark m_document_mark;
  std::optional<YamlProblem> m_unterminated_quote;
};

/// Runs yaml-cpp over the text; a syntax error leaves the document without a root.
void parse_documents(std::string_view text, YamlDocument& document) {
  LineIndex lines(text);
  std::istringstream in{std::string(text)};
  try {
    YAML::Parser parser(in);
    TreeBuilder builder(lines, document.problems);
    if (!parser.HandleNextDocument(builder)) {
      document.root = YamlNode{};
      return;
    }
    if (builder.unterminated_quote()) {
      document.problems = {*builder.unterminated_quote()};  // what follows the quote was swallowed: trust nothing
      return;
    }
    std::vector<YamlProblem> ignored;
    TreeBuilder next(lines, ignored);
    if (parser.HandleNextDocument(next)) {
      document.problems.push_back({next.document_mark(), "a second YAML document starts here; the file must hold one"});
    }
    document.root = std::move(builder.root());
  } catch (const YAML::Exception& error) {
    document.root.reset();
    document.problems = {{to_mark(error.mark), "YAML syntax error: " + error.msg}};
  }
}

}  // namespace

YamlDocument parse_yaml(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // a UTF-8 byte order mark
  YamlDocument document;
  parse_documents(text, document);
  return document;
}

namespace {

/// True for a JSON number; `is_integer` tells whether it has neither fraction nor exponent.
bool is_json_number(std::string_view text, bool& is_integer) {
  std::size_t i = 0;
  auto digits = [&] {
    std::size_t start = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    return i > start;
  };
  if (i < text.size() && text[i] == '-') ++i;
  bool leading_zero = i < text.size() && text[i] == '0';
  if (leading_zero) ++i;
  if (!leading_zero && !digits()) return false;
  is_integer = true;
  if (i < text.size() && text[i] == '.') {
    ++i;
    is_integer = false;
    if (!digits()) return false;
  }
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    is_integer = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == text.size();
}

Json plain_scalar_to_json(const std::string& text) {
  if (text == "true" || text == "True" || text == "TRUE") return Json(true);
  if (text == "false" || text == "False" || text == "FALSE") return Json(false);
  if (text == "null" || text == "Null" || text == "NULL" || text == "~") return Json(nullptr);
  bool is_integer = false;
  if (!is_json_number(text, is_integer)) return Json(text);
  const char* end = text.data() + text.size();
  if (is_integer) {
    std::int64_t value = 0;
    if (std::from_chars(text.data(), end, value).ec == std::errc{}) return Json(static_cast<long long>(value));
  }
  double number = 0;
  if (std::from_chars(text.data(), end, number).ec == std::errc{}) return Json(number);
  return Json(text);
}

}  // namespace

Json yaml_to_json(const YamlNode& node) {
  if (node.is_null()) return Json(nullptr);
  if (node.is_scalar()) return node.style == ScalarStyle::plain ? plain_scalar_to_json(node.scalar) : Json(node.scalar);
  if (node.is_sequence()) {
    Json array = Json::array();
    for (const YamlNode& item : node.items) array.push(yaml_to_json(item));
    return array;
  }
  Json object = Json::object();
  for (const YamlEntry& entry : node.entries) object.as_object().emplace_back(entry.key, yaml_to_json(entry.value));
  return object;
}

bool has_misspelling_of(const YamlNode& node, std::string_view key, const std::vector<std::string>& known) {
  return std::any_of(node.entries.begin(), node.entries.end(), [&](const YamlEntry& entry) {
    return std::find(known.begin(), known.end(), entry.key) == known.end() && closest_match(entry.key, known) == key;
  });
}

std::string describe_yaml(const YamlNode& node) {
  constexpr std::size_t k_max_shown = 60;
  if (node.is_null()) return "nothing";
  if (node.is_sequence()) return "a list";
  if (node.is_map()) return "a map";
  std::string_view whole = node.scalar;
  while (!whole.empty() && whole.back() == '\n') whole.remove_suffix(1);
  std::string_view shown = whole.substr(0, whole.find('\n'));
  if (shown.size() > k_max_shown) {
    std::size_t end = k_max_shown;
    while (end > 0 && (static_cast<unsigned char>(shown[end]) & 0xC0) == 0x80) --end;  // a UTF-8 boundary
    shown = shown.substr(0, end);
  }
  bool cut = shown.size() < whole.size();
  return "'" + std::string(shown) + (cut ? "...'" : "'");
}

YamlChecker::YamlChecker(std::string file) : m_file(std::move(file)) {}

void YamlChecker::add(YamlMark mark, std::string message) { m_problems.push_back({mark, std::move(message)}); }

void YamlChecker::add_all(const std::vector<YamlProblem>& problems) {
  m_problems.insert(m_problems.end(), problems.begin(), problems.end());
}

Error YamlChecker::error() const {
  std::vector<YamlProblem> sorted = m_problems;
  std::stable_sort(sorted.begin(), sorted.end(), [](const YamlProblem& a, const YamlProblem& b) {
    return a.mark.line != b.mark.line ? a.mark.line < b.mark.line : a.mark.column < b.mark.column;
  });
  std::vector<std::string> lines;
  for (const YamlProblem& problem : sorted) {
    lines.push_back(m_file + ":" + std::to_string(problem.mark.line) + ":" + std::to_string(problem.mark.column) +
                    ": " + one_line(problem.message));  // a key or value quoted in it may span lines
  }
  return make_error(join(lines, "\n"));
}

bool YamlChecker::check_map(const YamlNode& node, std::string_view name, const std::vector<std::string>& known,
                            const std::vector<std::string>& unsupported) {
  if (!node.is_map()) {
    add(node.mark, name.empty() ? "the file must hold a map of keys, got " + describe_yaml(node)
                                : "'" + std::string(name) + "' must be a map, got " + describe_yaml(node));
    return false;
  }
  std::string where = name.empty() ? "" : " in '" + std::string(name) + "'";
  for (const YamlEntry& entry : node.entries) {
    if (std::find(known.begin(), known.end(), entry.key) != known.end()) continue;
    if (std::find(unsupported.begin(), unsupported.end(), entry.key) != unsupported.end()) {
      add(entry.key_mark, "'" + entry.key + "' is not supported yet");
      continue;
    }
    std::optional<std::string> suggestion = closest_match(entry.key, known);
    add(entry.key_mark,
        "unknown key '" + entry.key + "'" + where +
            (suggestion ? " (did you mean '" + *suggestion + "'?)" : " (known keys: " + join(known, ", ") + ")"));
  }
  return true;
}

std::optional<std::string> YamlChecker::text(const YamlNode& node, std::string_view name) {
  if (node.is_null() || (node.is_scalar() && node.scalar.empty())) {
    add(node.mark, "'" + std::string(name) + "' must not be empty");
    return std::nullopt;
  }
  if (!node.is_scalar()) {
    add(node.mark, "'" + std::string(name) + "' must be a string, got " + describe_yaml(node));
    return std::nullopt;
  }
  return node.scalar;
}

namespace {

/// How a value that should have been a number reads in a message: quoted ones are strings.
std::string describe_not_number(const YamlNode& node) {
  return node.is_scalar() && node.style == ScalarStyle::quoted ? "the string " + describe_yaml(node)
                                                               : describe_yaml(node);
}

}  // namespace

std::optional<std::int64_t> YamlChecker::integer(const YamlNode& node, std::string_view name, std::int64_t minimum,
                                                 std::int64_t maximum) {
  std::string kind = minimum == 1 ? "a positive integer" : "an integer of at least " + std::to_string(minimum);
  std::int64_t value = 0;
  bool is_integer = false;
  std::errc status = std::errc::invalid_argument;
  if (node.is_scalar() && node.style == ScalarStyle::plain && is_json_number(node.scalar, is_integer) && is_integer) {
    status = std::from_chars(node.scalar.data(), node.scalar.data() + node.scalar.size(), value).ec;
  }
  bool too_large = status == std::errc::result_out_of_range && node.scalar[0] != '-';
  if (!too_large && (status != std::errc{} || value < minimum)) {
    add(node.mark, "'" + std::string(name) + "' must be " + kind + ", got " + describe_not_number(node));
    return std::nullopt;
  }
  if (too_large || value > maximum) {
    add(node.mark,
        "'" + std::string(name) + "' must be at most " + std::to_string(maximum) + ", got " + describe_yaml(node));
    return std::nullopt;
  }
  return value;
}

std::optional<double> YamlChecker::positive_number(const YamlNode& node, std::string_view name) {
  bool is_integer = false;
  double value = 0;
  if (node.is_scalar() && node.style == ScalarStyle::plain && is_json_number(node.scalar, is_integer)) {
    std::from_chars(node.scalar.data(), node.scalar.data() + node.scalar.size(), value);
  }
  if (!(value > 0) || value == std::numeric_limits<double>::infinity()) {
    add(node.mark, "'" + std::string(name) + "' must be a positive number, got " + describe_not_number(node));
    return std::nullopt;
  }
  return value;
}

std::optional<std::chrono::milliseconds> YamlChecker::duration(const YamlNode& node, std::string_view name) {
  std::optional<std::chrono::milliseconds> value;
  if (node.is_scalar()) value = parse_duration(node.scalar);
  if (!value) {
    add(node.mark, "'" + std::string(name) + "' is not a duration: " + describe_yaml(node) + " (use 90s, 15m or 1h)");
  } else if (value->count() == 0) {
    add(node.mark, "'" + std::string(name) + "' must be longer than 0, got " + describe_yaml(node));
    value.reset();
  }
  return value;
}

std::optional<std::string> YamlChecker::choice(const YamlNode& node, std::string_view name,
                                               const std::vector<std::string>& choices) {
  if (node.is_scalar() && std::find(choices.begin(), choices.end(), node.scalar) != choices.end()) {
    return node.scalar;
  }
  std::string listed;
  for (std::size_t i = 0; i < choices.size(); ++i) {
    listed += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + choices[i];
  }
  std::optional<std::string> suggestion;
  if (node.is_scalar()) suggestion = closest_match(node.scalar, choices);
  add(node.mark, "'" + std::string(name) + "' must be " + listed + ", got " + describe_yaml(node) +
                     (suggestion ? " (did you mean '" + *suggestion + "'?)" : ""));
  return std::nullopt;
}

const std::vector<YamlNode>* YamlChecker::list(const YamlNode& node, std::string_view name) {
  if (!node.is_sequence()) {
    add(node.mark, "'" + std::string(name) + "' must be a list, got " + describe_yaml(node));
    return nullptr;
  }
  return &node.items;
}

std::optional<std::vector<std::string>> YamlChecker::text_list(const YamlNode& node, std::string_view name) {
  const std::vector<YamlNode>* items = list(node, name);
  if (!items) return std::nullopt;
  std::vector<std::string> values;
  bool all_good = true;
  for (std::size_t i = 0; i < items->size(); ++i) {
    std::optional<std::string> value = text((*items)[i], std::string(name) + "[" + std::to_string(i) + "]");
    if (value) values.push_back(std::move(*value));
    all_good = all_good && value.has_value();
  }
  if (!all_good) return std::nullopt;
  return values;
}

}  // namespace agent_run
