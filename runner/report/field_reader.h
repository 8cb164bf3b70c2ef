#pragma once

#include "base/expected.h"
#include "base/json.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace agent_run {

/// A C++ integer type other than bool: what a JSON whole number is read into.
template <typename T>
concept WholeNumber = std::is_integral_v<T> && !std::is_same_v<T, bool>;

/// Reads typed members of one document, keeping the first problem (with the field's path).
class FieldReader {
 public:
  /// `format_1`: the document is in the older format (report_schema.h).
  FieldReader(std::string source, bool format_1) : m_source(std::move(source)), m_format_1(format_1) {}

  bool ok() const { return !m_problem; }
  bool format_1() const { return m_format_1; }
  Error error() const { return make_error(m_source + ": " + m_problem.value_or("")); }
  void fail(const std::string& path, const std::string& what) {
    if (!m_problem) m_problem = path + ": " + what;
  }

  /// The member `key` of `object` when it is there and not null; a problem when `object` is not an object.
  const Json* member(const Json& object, std::string_view key, const std::string& path) {
    if (!object.is_object()) {
      fail(path, "expected an object");
      return nullptr;
    }
    const Json* value = object.find(key);
    return value && !value->is_null() ? value : nullptr;
  }

  void read(const Json& object, std::string_view key, const std::string& path, std::string& out) {
    const Json* value = member(object, key, path);
    if (!value) return;
    if (!value->is_string()) return fail(join_path(path, key), "expected a string");
    out = value->as_string();
  }

  template <WholeNumber Integer>
  void read(const Json& object, std::string_view key, const std::string& path, Integer& out) {
    const Json* value = member(object, key, path);
    if (!value) return;
    if (!value->is_integer()) return fail(join_path(path, key), "expected a whole number");
    out = static_cast<Integer>(value->as_int());
  }

  void read(const Json& object, std::string_view key, const std::string& path, bool& out) {
    const Json* value = member(object, key, path);
    if (!value) return;
    if (!value->is_bool()) return fail(join_path(path, key), "expected true or false");
    out = value->as_bool();
  }

  /// Calls `each(item, item_path)` for every item of the array member `key`.
  void for_each(const Json& object, std::string_view key, const std::string& path,
                const std::function<void(const Json&, const std::string&)>& each) {
    const Json* value = member(object, key, path);
    if (!value) return;
    std::string array_path = join_path(path, key);
    if (!value->is_array()) return fail(array_path, "expected an array");
    for (std::size_t i = 0; i < value->as_array().size() && ok(); ++i) {
      each(value->as_array()[i], array_path + "[" + std::to_string(i) + "]");
    }
  }

  /// Reads the array member `key`, whose items must be strings.
  void read_strings(const Json& object, std::string_view key, const std::string& path, std::vector<std::string>& out) {
    for_each(object, key, path, [&](const Json& item, const std::string& at) {
      if (!item.is_string()) return fail(at, "expected a string");
      out.push_back(item.as_string());
    });
  }

  static std::string join_path(const std::string& path, std::string_view key) {
    return path.empty() ? std::string(key) : path + "." + std::string(key);
  }

 private:
  std::string m_source;
  bool m_format_1 = false;
  std::optional<std::string> m_problem;
};

}  // namespace agent_run
