#include "tools/input_check.h"

#include "base/json_schema.h"
#include "base/text.h"
#include "tools/tool.h"
#include "tools/tool_table.h"

#include <algorithm>
#include <map>

namespace agent_run {

namespace {

/// The JSON type name `value` has, as a schema's "type" spells it.
std::string type_of(const Json& value) {
  if (value.is_null()) return "null";
  if (value.is_bool()) return "boolean";
  if (value.is_integer()) return "integer";
  if (value.is_number()) return "number";
  if (value.is_string()) return "string";
  if (value.is_array()) return "array";
  return "object";
}

bool has_type(const Json& value, const std::string& type) {
  if (type == "number") return value.is_number();
  return type_of(value) == type;
}

/// "a string", "an integer", ... for a message.
std::string a_type(const std::string& type) {
  bool vowel = !type.empty() && std::string_view("aeiou").find(type.front()) != std::string_view::npos;
  return (vowel ? "an " : "a ") + type;
}

std::string value_text(const Json& value) {
  std::string text = value.dump();
  return text.size() > 60 ? text.substr(0, 57) + "..." : text;
}

/// The problem with the value of `key`, checked against its property schema, or "".
std::string value_problem(const std::string& tool, const std::string& key, const Json& schema, const Json& value) {
  const Json* type = schema.find("type");
  if (type && type->is_string() && !has_type(value, type->as_string())) {
    std::string hint = type->as_string() == "string" && !value.is_object() && !value.is_array() ? " (quote it)" : "";
    return tool + "'s input '" + key + "' must be " + a_type(type->as_string()) + ", got " + value_text(value) + hint;
  }
  // The rest (enums, items, nested keys) by the JSON Schema validator, which wants an object at the
  // root: the value is checked as the one key of one.
  Json wrapper = Json::object().set("type", "object").set("properties", Json::object().set("v", schema));
  auto compiled = JsonSchema::compile(wrapper);
  if (!compiled) return "";
  std::vector<std::string> problems;
  for (std::string problem : compiled->problems(Json::object().set("v", value))) {
    if (problem.starts_with("could not be checked")) return "";
    if (problem.starts_with("at /:")) continue;  // the wrapper's own line: the value's lines say why
    if (problem.starts_with("at /v/")) problem = "at /" + problem.substr(6);  // within the value
    else if (problem.starts_with("at /v:")) problem = "at /" + problem.substr(5);  // the value itself
    problems.push_back(problem);
  }
  if (problems.empty()) return "";
  return tool + "'s input '" + key + "' does not fit its schema: " + join(problems, "; ");
}

}  // namespace

std::vector<InputProblem> check_tool_input(const ToolSchema& schema, const Json& input) {
  std::vector<InputProblem> found;
  const Json* properties = schema.input_schema.find("properties");
  std::vector<std::string> names;
  if (properties && properties->is_object()) {
    for (const auto& [name, ignored] : properties->as_object()) names.push_back(name);
  }
  const Json* additional = schema.input_schema.find("additionalProperties");
  const bool closed = additional && additional->is_bool() && !additional->as_bool();
  if (!input.is_object()) return {{"", schema.name + "'s input must be a map, got " + value_text(input)}};
  std::vector<std::string> suggested;  // a missing key a misspelt one was taken for is said once
  for (const auto& [key, value] : input.as_object()) {
    const Json* property = properties ? properties->find(key) : nullptr;
    if (!property && closed) {
      auto suggestion = closest_match(key, names);
      if (suggestion) suggested.push_back(*suggestion);
      found.push_back({key, schema.name + " has no input '" + key + "'" +
                                (suggestion ? " (did you mean '" + *suggestion + "'?)"
                                            : " (its inputs: " + join(names, ", ") + ")")});
    } else if (property) {
      if (std::string problem = value_problem(schema.name, key, *property, value); !problem.empty()) {
        found.push_back({key, problem});
      }
    }
  }
  if (const Json* required = schema.input_schema.find("required"); required && required->is_array()) {
    for (const Json& name : required->as_array()) {
      if (!name.is_string() || input.find(name.as_string())) continue;
      if (std::find(suggested.begin(), suggested.end(), name.as_string()) != suggested.end()) continue;
      found.push_back({"", schema.name + " needs the input '" + name.as_string() + "'"});
    }
  }
  return found;
}

const ToolSchema* builtin_tool_schema(std::string_view name) {
  static const std::map<std::string, ToolSchema, std::less<>> k_schemas = [] {
    std::map<std::string, ToolSchema, std::less<>> schemas;
    for (const BuiltinTool& tool : builtin_tools()) schemas.emplace(std::string(tool.name), tool.make()->schema());
    return schemas;
  }();
  auto it = k_schemas.find(name);
  return it == k_schemas.end() ? nullptr : &it->second;
}

}  // namespace agent_run
