#pragma once

#include "base/expected.h"
#include "base/json.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace agent_run {

/// The string member `key` of a tool's input; an error the model can act on when missing or mistyped.
Expected<std::string> required_string(const Json& input, std::string_view key);

/// The integer member `key`, `fallback` when absent; an error when present but not a whole number.
Expected<std::int64_t> optional_integer(const Json& input, std::string_view key, std::int64_t fallback);

/// The boolean member `key`, `fallback` when absent; an error when present but not a boolean.
Expected<bool> optional_boolean(const Json& input, std::string_view key, bool fallback);

/// A JSON schema object with the given properties and required names, for ToolSchema.
Json object_schema(Json properties, std::initializer_list<const char*> required);

/// `{"type": type, "description": description}`.
Json property(const char* type, const char* description);

/// An error result for the model.
inline std::string tool_error_text(const std::string& tool, const std::string& message) {
  return tool + ": " + message;
}

}  // namespace agent_run
