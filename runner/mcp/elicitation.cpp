#include "mcp/elicitation.h"

#include "base/text.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <vector>

namespace agent_run {

namespace {

std::string lowered(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

bool is_required(const Json& schema, const std::string& field) {
  const Json* required = schema.find("required");
  if (!required || !required->is_array()) return false;
  return std::any_of(required->as_array().begin(), required->as_array().end(),
                     [&](const Json& name) { return name.is_string() && name.as_string() == field; });
}

/// An enum's allowed values with their titles: `enum` (+ legacy `enumNames`), or `oneOf`/`anyOf` of {const, title}.
std::vector<std::pair<std::string, std::string>> choices_of(const Json& field) {
  std::vector<std::pair<std::string, std::string>> choices;
  if (const Json* values = field.find("enum"); values && values->is_array()) {
    const Json* names = field.find("enumNames");
    for (std::size_t i = 0; i < values->as_array().size(); ++i) {
      const Json& value = values->as_array()[i];
      if (!value.is_string()) continue;
      std::string title = names && names->is_array() && i < names->as_array().size() && names->as_array()[i].is_string()
                              ? names->as_array()[i].as_string()
                              : value.as_string();
      choices.emplace_back(value.as_string(), title);
    }
  }
  for (const char* key : {"oneOf", "anyOf"}) {
    const Json* options = field.find(key);
    if (!options || !options->is_array()) continue;
    for (const Json& option : options->as_array()) {
      std::string value = option.get_string("const");
      if (!value.empty()) choices.emplace_back(value, option.get_string("title", value));
    }
  }
  return choices;
}

Expected<Json> as_choice(const Json& field, std::string_view answer) {
  auto choices = choices_of(field);
  if (choices.empty()) return Json(std::string(answer));
  for (const auto& [value, title] : choices) {
    if (lowered(value) == lowered(answer) || lowered(title) == lowered(answer)) return Json(value);
  }
  std::string allowed;
  for (const auto& choice : choices) allowed += (allowed.empty() ? "" : ", ") + choice.first;
  return make_error("'" + std::string(answer) + "' is not one of " + allowed);
}

Expected<Json> as_number(std::string_view answer, bool integer) {
  std::string text(trim(answer));
  if (integer) {
    long long value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec == std::errc() && end == text.data() + text.size() && !text.empty()) return Json(value);
    return make_error("'" + text + "' is not an integer");
  }
  try {
    std::size_t used = 0;
    double value = std::stod(text, &used);
    if (used == text.size()) return Json(value);
  } catch (const std::exception&) {
  }
  return make_error("'" + text + "' is not a number");
}

Expected<Json> as_boolean(std::string_view answer) {
  std::string text = lowered(trim(answer));
  if (text == "true" || text == "yes" || text == "y" || text == "1" || text == "on") return Json(true);
  if (text == "false" || text == "no" || text == "n" || text == "0" || text == "off") return Json(false);
  return make_error("'" + text + "' is not yes or no");
}

/// `answer` as a value of `field`'s type.
Expected<Json> convert(const Json& field, const std::string& answer) {
  std::string type = field.get_string("type", "string");
  if (type == "integer" || type == "number") return as_number(answer, type == "integer");
  if (type == "boolean") return as_boolean(answer);
  if (type == "array") {
    const Json* items = field.find("items");
    Json list = Json::array();
    for (const std::string& piece : split(answer, ',')) {
      auto value = as_choice(items ? *items : Json::object(), trim(piece));
      if (!value) return value.error();
      list.push(std::move(*value));
    }
    return list;
  }
  return as_choice(field, answer);
}

/// The field an answer goes to: the only required one without a default, else the only one.
Expected<std::string> answered_field(const Json& properties, const Json& schema) {
  std::vector<std::string> needing;
  for (const auto& [name, field] : properties.as_object()) {
    if (is_required(schema, name) && !field.find("default")) needing.push_back(name);
  }
  if (needing.size() == 1) return needing.front();
  if (needing.empty() && properties.as_object().size() == 1) return properties.as_object().front().first;
  return make_error(needing.empty() ? "the form has several fields and none of them needs an answer"
                                    : "the form has " + std::to_string(needing.size()) +
                                          " required fields without a default; one answer cannot fill them");
}

}  // namespace

std::optional<Json> form_defaults(const Json& requested_schema) {
  const Json* properties = requested_schema.find("properties");
  if (!properties || !properties->is_object()) return std::nullopt;
  Json content = Json::object();
  for (const auto& [name, field] : properties->as_object()) {
    if (const Json* value = field.find("default")) {
      content.set(name, *value);
    } else if (is_required(requested_schema, name)) {
      return std::nullopt;
    }
  }
  return content;
}

Expected<Json> fill_form(const Json& requested_schema, const std::string& answer) {
  const Json* properties = requested_schema.find("properties");
  if (!properties || !properties->is_object() || properties->as_object().empty()) {
    return make_error("the elicitation holds no form fields");
  }
  auto field = answered_field(*properties, requested_schema);
  if (!field) return field.error();
  auto value = convert(*properties->find(*field), answer);
  if (!value) return make_error("field '" + *field + "': " + value.error().message);
  Json content = Json::object();
  for (const auto& [name, schema] : properties->as_object()) {
    if (name == *field) {
      content.set(name, *value);
    } else if (const Json* fallback = schema.find("default")) {
      content.set(name, *fallback);
    }
  }
  return content;
}

const char* to_string(ElicitationAction action) {
  switch (action) {
    case ElicitationAction::accept: return "accept";
    case ElicitationAction::decline: return "decline";
    case ElicitationAction::cancel: return "cancel";
  }
  return "decline";
}

}  // namespace agent_run
