#pragma once

#include "base/expected.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace agent_run {

/// A JSON value: tool inputs, model messages and reports. Objects keep their keys in insertion
/// order so that what we write reads in the order we wrote it.
class Json {
 public:
  using Array = std::vector<Json>;
  using Object = std::vector<std::pair<std::string, Json>>;

  Json() = default;
  Json(std::nullptr_t) {}
  Json(bool value) : m_value(value) {}
  Json(int value) : m_value(static_cast<std::int64_t>(value)) {}
  Json(long value) : m_value(static_cast<std::int64_t>(value)) {}
  Json(long long value) : m_value(static_cast<std::int64_t>(value)) {}
  Json(unsigned value) : m_value(static_cast<std::int64_t>(value)) {}
  Json(unsigned long value) : m_value(static_cast<std::int64_t>(value)) {}
  Json(unsigned long long value) : m_value(static_cast<std::int64_t>(value)) {}
  Json(double value) : m_value(value) {}
  Json(const char* value) : m_value(std::string(value)) {}
  Json(std::string value) : m_value(std::move(value)) {}
  Json(std::string_view value) : m_value(std::string(value)) {}
  Json(Array value) : m_value(std::move(value)) {}
  Json(Object value) : m_value(std::move(value)) {}

  static Json object() { return Json(Object{}); }
  static Json array() { return Json(Array{}); }

  bool is_null() const { return m_value.index() == 0; }
  bool is_bool() const { return m_value.index() == 1; }
  bool is_integer() const { return m_value.index() == 2; }
  bool is_number() const { return m_value.index() == 2 || m_value.index() == 3; }
  bool is_string() const { return m_value.index() == 4; }
  bool is_array() const { return m_value.index() == 5; }
  bool is_object() const { return m_value.index() == 6; }

  bool as_bool() const { return std::get<bool>(m_value); }
  std::int64_t as_int() const;
  double as_double() const;
  const std::string& as_string() const { return std::get<std::string>(m_value); }
  const Array& as_array() const { return std::get<Array>(m_value); }
  Array& as_array() { return std::get<Array>(m_value); }
  const Object& as_object() const { return std::get<Object>(m_value); }
  Object& as_object() { return std::get<Object>(m_value); }

  /// The member named `key`, or nullptr when this is not an object or has no such member.
  const Json* find(std::string_view key) const;
  /// The string member `key`, or `fallback` when it is missing or not a string.
  std::string get_string(std::string_view key, std::string_view fallback = {}) const;
  /// Sets member `key` (replacing an existing one) and returns *this, for chaining.
  Json& set(std::string key, Json value);
  /// Appends to an array.
  void push(Json value) { as_array().push_back(std::move(value)); }

  /// Compact serialisation; invalid UTF-8 in strings is replaced with U+FFFD so the output always parses.
  std::string dump() const;
  /// Indented serialisation for files people read.
  std::string dump_pretty() const;

  friend bool operator==(const Json& a, const Json& b) { return a.m_value == b.m_value; }

 private:
  void dump_to(std::string& out, int indent, int depth) const;

  std::variant<std::nullptr_t, bool, std::int64_t, double, std::string, Array, Object> m_value;
};

/// Parses one JSON document (RFC 8259; any value at the top). Errors say where and what.
Expected<Json> parse_json(std::string_view text);

/// Appends `text` to `out` as a JSON string literal, quotes included.
void append_json_string(std::string& out, std::string_view text);

}  // namespace agent_run
