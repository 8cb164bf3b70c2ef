#pragma once

#include "base/json.h"
#include "tools/tool_call.h"

#include <string>
#include <vector>

namespace agent_run {

/// One way a tool call's input does not fit the tool's input schema.
struct InputProblem {
  std::string key;      // the top-level input key it is about; "" for the input as a whole (a key missing)
  std::string message;  // e.g. "read_file has no input 'pth' (did you mean 'path'?)"
};

/// What is wrong with `input` for the tool whose schema is `schema`, checked before anything runs
/// (a task's scripted calls): keys the schema does not name (with a "did you mean"), required keys
/// missing, and values of the wrong type or outside an enum, nested values included.
std::vector<InputProblem> check_tool_input(const ToolSchema& schema, const Json& input);

/// The input schema of the built-in tool `name`, or nullptr when there is none (an MCP tool).
const ToolSchema* builtin_tool_schema(std::string_view name);

}  // namespace agent_run
