#pragma once

#include "base/yaml_document.h"
#include "task/task_fields.h"
#include "tools/tool_call.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace agent_run {

/// Checks each call of a task's `script:` (the YAML node, for positions) against the tools the task
/// offers, before anything runs: a tool no one has (with a "did you mean"), a built-in tool the
/// task's `tools:` leaves out, an MCP server not in `mcp_servers:`, and the input against the
/// built-in tool's input schema (unknown and missing keys, wrong types). An MCP tool's input cannot
/// be checked before its server runs: that is said as a warning of the task. Reads the task's
/// `tools:` and `mcp_servers:`, so it runs once they are read.
void check_script_calls(const YamlNode& script, TaskReading& reading);

/// Calls `visit` with each call of a `script:` node (`call:` and each of `calls:`) and its name
/// in messages (`script[2].call`, `script[3].calls[0]`).
void for_each_script_call(const YamlNode& script,
                          const std::function<void(const YamlNode& call, const std::string& name)>& visit);

/// What is wrong with one scripted call's `input` for the tool of `schema`, each problem where it
/// is written: an unknown key at the key, a wrong value at the value, a missing key at the input.
std::vector<std::pair<YamlMark, std::string>> script_input_problems(const YamlNode& call, const YamlNode* input,
                                                                    const ToolSchema& schema, const std::string& name);

}  // namespace agent_run
