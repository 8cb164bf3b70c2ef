#include "base/json.h"

#include "base/text.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <cstdio>

namespace agent_run {

std::int64_t Json::as_int() const {
  if (is_integer()) {
    return std::get<std::int64_t>(m_value);
  }
  // A double past int64 (8.9e82 in a stream's usage, say) saturates: casting it would be undefined.
  const double value = std::get<double>(m_value);
  constexpr double k_two_to_63 = 9223372036854775808.0;
  if (std::isnan(value)) return 0;
  if (value >= k_two_to_63) return std::numeric_limits<std::int64_t>::max();
  if (value < -k_two_to_63) return std::numeric_limits<std::int64_t>::min();
  return static_cast<std::int64_t>(value);
}

double Json::as_double() const {
  if (is_integer()) {
    return static_cast<double>(std::get<std::int64_t>(m_value));
  }
  return std::get<double>(m_value);
}

const Json* Json::find(std::string_view key) const {
  if (!is_object()) {
    return nullptr;
  }
  for (const auto& [name, value] : as_object()) {
    if (name == key) {
      return &value;
    }
  }
  return nullptr;
}

std::string Json::get_string(std::string_view key, std::string_view fallback) const {
  const Json* member = find(key);
  return member && member->is_string() ? member->as_string() : std::string(fallback);
}

Json& Json::set(std::string key, Json value) {
  if (is_null()) {
    m_value = Object{};
  }
  for (auto& [name, existing] : as_object()) {
    if (name == key) {
      existing = std::move(value);
      return *this;
    }
  }
  as_object().emplace_back(std::move(key), std::move(value));
  return *this;
}

void append_json_string(std::string& out, std::string_view raw) {
  const std::string text = repair_utf8(raw);
  out += '"';
  for (unsigned char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
          out += escaped;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
}

namespace {

void append_number(std::string& out, double value) {
  if (!std::isfinite(value)) {
    out += "null";
    return;
  }
  if (value == 0) value = 0.0;  // -0.0 would be "-0", which reads back as the integer 0 and writes "0"
  char buffer[32];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, ec == std::errc() ? end : buffer);
}

void append_newline(std::string& out, int indent, int depth) {
  if (indent > 0) {
    out += '\n';
    out.append(static_cast<std::size_t>(indent * depth), ' ');
  }
}

}  // namespace

void Json::dump_to(std::string& out, int indent, int depth) const {
  switch (m_value.index()) {
    case 0: out += "null"; return;
    case 1: out += as_bool() ? "true" : "false"; return;
    case 2: out += std::to_string(std::get<std::int64_t>(m_value)); return;
    case 3: append_number(out, std::get<double>(m_value)); return;
    case 4: append_json_string(out, as_string()); return;
    case 5: {
      const Array& items = as_array();
      out += '[';
      for (std::size_t i = 0; i < items.size(); ++i) {
        out += i ? "," : "";
        append_newline(out, indent, depth + 1);
        items[i].dump_to(out, indent, depth + 1);
      }
      if (!items.empty()) {
        append_newline(out, indent, depth);
      }
      out += ']';
      return;
    }
    default: {
      const Object& members = as_object();
      out += '{';
      for (std::size_t i = 0; i < members.size(); ++i) {
        out += i ? "," : "";
        append_newline(out, indent, depth + 1);
        append_json_string(out, members[i].first);
        out += indent > 0 ? ": " : ":";
        members[i].second.dump_to(out, indent, depth + 1);
      }
      if (!members.empty()) {
        append_newline(out, indent, depth);
      }
      out += '}';
    }
  }
}

std::string Json::dump() const {
  std::string out;
  dump_to(out, 0, 0);
  return out;
}

std::string Json::dump_pretty() const {
  std::string out;
  dump_to(out, 2, 0);
  out += '\n';
  return out;
}

namespace {

constexpr int k_max_depth = 512;

/// Recursive-descent parser over a string_view; the first error stops it.
class JsonParser {
 public:
  explicit JsonParser(std::string_view text) : m_text(text) {}

  Expected<Json> parse_document() {
    Json value = parse_value(0);
    skip_space();
    if (m_error.empty() && m_pos != m_text.size()) {
      fail("unexpected text after the JSON value");
    }
    if (!m_error.empty()) {
      return make_error("invalid JSON at offset " + std::to_string(m_error_at) + ": " + m_error);
    }
    return value;
  }

 private:
  void fail(std::string message) {
    if (m_error.empty()) {
      m_error = std::move(message);
      m_error_at = m_pos;
    }
  }
  bool failed() const { return !m_error.empty(); }

  void skip_space() {
    while (m_pos < m_text.size() &&
           (m_text[m_pos] == ' ' || m_text[m_pos] == '\t' || m_text[m_pos] == '\n' || m_text[m_pos] == '\r')) {
      ++m_pos;
    }
  }

  bool consume_literal(std::string_view word) {
    if (m_text.substr(m_pos, word.size()) == word) {
      m_pos += word.size();
      return true;
    }
    return false;
  }

  Json parse_value(int depth) {
    if (depth > k_max_depth) {
      fail("nesting deeper than " + std::to_string(k_max_depth));
      return {};
    }
    skip_space();
    if (m_pos >= m_text.size()) {
      fail("unexpected end of input");
      return {};
    }
    char c = m_text[m_pos];
    if (c == '{') return parse_object(depth);
    if (c == '[') return parse_array(depth);
    if (c == '"') return Json(parse_string());
    if (consume_literal("true")) return Json(true);
    if (consume_literal("false")) return Json(false);
    if (consume_literal("null")) return Json(nullptr);
    if (c == '-' || (c >= '0' && c <= '9')) return parse_number();
    fail(std::string("unexpected character '") + c + "'");
    return {};
  }

  Json parse_object(int depth) {
    Json::Object members;
    ++m_pos;
    skip_space();
    if (m_pos < m_text.size() && m_text[m_pos] == '}') {
      ++m_pos;
      return Json(std::move(members));
    }
    while (!failed()) {
      skip_space();
      if (m_pos >= m_text.size() || m_text[m_pos] != '"') {
        fail("expected a string key");
        break;
      }
      std::string key = parse_string();
      skip_space();
      if (m_pos >= m_text.size() || m_text[m_pos] != ':') {
        fail("expected ':' after a key");
        break;
      }
      ++m_pos;
      Json value = parse_value(depth + 1);
      members.emplace_back(std::move(key), std::move(value));
      skip_space();
      if (m_pos < m_text.size() && m_text[m_pos] == ',') {
        ++m_pos;
        continue;
      }
      if (m_pos < m_text.size() && m_text[m_pos] == '}') {
        ++m_pos;
        break;
      }
      fail("expected ',' or '}' in an object");
    }
    return Json(std::move(members));
  }

  Json parse_array(int depth) {
    Json::Array items;
    ++m_pos;
    skip_space();
    if (m_pos < m_text.size() && m_text[m_pos] == ']') {
      ++m_pos;
      return Json(std::move(items));
    }
    while (!failed()) {
      items.push_back(parse_value(depth + 1));
      skip_space();
      if (m_pos < m_text.size() && m_text[m_pos] == ',') {
        ++m_pos;
        continue;
      }
      if (m_pos < m_text.size() && m_text[m_pos] == ']') {
        ++m_pos;
        break;
      }
      fail("expected ',' or ']' in an array");
    }
    return Json(std::move(items));
  }

  Json parse_number() {
    std::size_t start = m_pos;
    if (m_text[m_pos] == '-') ++m_pos;
    bool is_float = false;
    while (m_pos < m_text.size()) {
      char c = m_text[m_pos];
      if (c == '.' || c == 'e' || c == 'E' || c == '+' || (c == '-' && m_pos > start)) {
        is_float = true;
      } else if (c < '0' || c > '9') {
        break;
      }
      ++m_pos;
    }
    std::string_view digits = m_text.substr(start, m_pos - start);
    if (!is_float) {
      std::int64_t value = 0;
      auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
      if (ec == std::errc() && end == digits.data() + digits.size()) {
        return Json(static_cast<long long>(value));
      }
    }
    double value = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (ec != std::errc() || end != digits.data() + digits.size()) {
      fail("invalid number '" + std::string(digits) + "'");
    }
    return Json(value);
  }

  unsigned parse_hex4() {
    if (m_pos + 4 > m_text.size()) {
      fail("truncated \\u escape");
      return 0;
    }
    unsigned value = 0;
    for (int i = 0; i < 4; ++i) {
      char c = m_text[m_pos++];
      value <<= 4;
      if (c >= '0' && c <= '9') value |= static_cast<unsigned>(c - '0');
      else if (c >= 'a' && c <= 'f') value |= static_cast<unsigned>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') value |= static_cast<unsigned>(c - 'A' + 10);
      else fail("invalid \\u escape");
    }
    return value;
  }

  void parse_unicode_escape(std::string& out) {
    unsigned code = parse_hex4();
    if (code >= 0xD800 && code <= 0xDBFF && m_text.substr(m_pos, 2) == "\\u") {
      std::size_t saved = m_pos;
      m_pos += 2;
      unsigned low = parse_hex4();
      if (low >= 0xDC00 && low <= 0xDFFF) {
        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
      } else {
        m_pos = saved;
        code = 0xFFFD;
      }
    } else if (code >= 0xD800 && code <= 0xDFFF) {
      code = 0xFFFD;  // a lone surrogate cannot be UTF-8
    }
    append_utf8(out, code);
  }

  std::string parse_string() {
    std::string out;
    ++m_pos;
    while (!failed()) {
      if (m_pos >= m_text.size()) {
        fail("unterminated string");
        break;
      }
      char c = m_text[m_pos++];
      if (c == '"') break;
      if (static_cast<unsigned char>(c) < 0x20) {
        fail("unescaped control character in a string");
        break;
      }
      if (c != '\\') {
        out += c;
        continue;
      }
      if (m_pos >= m_text.size()) {
        fail("unterminated escape");
        break;
      }
      char e = m_text[m_pos++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': parse_unicode_escape(out); break;
        default: fail(std::string("invalid escape '\\") + e + "'");
      }
    }
    return repair_utf8(out);
  }

  std::string_view m_text;
  std::size_t m_pos = 0;
  std::string m_error;
  std::size_t m_error_at = 0;  // where the first error was found
};

}  // namespace

Expected<Json> parse_json(std::string_view text) { return JsonParser(text).parse_document(); }

}  // namespace agent_run
