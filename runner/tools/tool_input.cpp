#include "tools/tool_input.h"

namespace agent_run {

Expected<std::string> required_string(const Json& input, std::string_view key) {
  const Json* value = input.find(key);
  if (value == nullptr) {
    return make_error("missing required parameter '" + std::string(key) + "'");
  }
  if (!value->is_string()) {
    return make_error("parameter '" + std::string(key) + "' must be a string, got " + value->dump());
  }
  return value->as_string();
}

Expected<std::int64_t> optional_integer(const Json& input, std::string_view key, std::int64_t fallback) {
  const Json* value = input.find(key);
  if (value == nullptr || value->is_null()) {
    return fallback;
  }
  if (!value->is_integer()) {
    return make_error("parameter '" + std::string(key) + "' must be a whole number, got " + value->dump());
  }
  return value->as_int();
}

Expected<bool> optional_boolean(const Json& input, std::string_view key, bool fallback) {
  const Json* value = input.find(key);
  if (value == nullptr || value->is_null()) {
    return fallback;
  }
  if (!value->is_bool()) {
    return make_error("parameter '" + std::string(key) + "' must be true or false, got " + value->dump());
  }
  return value->as_bool();
}

Json object_schema(Json properties, std::initializer_list<const char*> required) {
  Json names = Json::array();
  for (const char* name : required) {
    names.push(name);
  }
  return Json::object()
      .set("type", "object")
      .set("properties", std::move(properties))
      .set("required", std::move(names))
      .set("additionalProperties", false);
}

Json property(const char* type, const char* description) {
  return Json::object().set("type", type).set("description", description);
}

}  // namespace agent_run
