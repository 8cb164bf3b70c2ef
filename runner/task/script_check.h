#pragma once

#include "base/yaml_document.h"
#include "task/task_fields.h"

namespace agent_run {

/// Checks each call of a task's `script:` (the YAML node, for positions) against the tools the task
/// offers, before anything runs: a tool no one has (with a "did you mean"), a built-in tool the
/// task's `tools:` leaves out, an MCP server not in `mcp_servers:`, and the input against the
/// built-in tool's input schema (unknown and missing keys, wrong types). An MCP tool's input cannot
/// be checked before its server runs: that is said as a warning of the task. Reads the task's
/// `tools:` and `mcp_servers:`, so it runs once they are read.
void check_script_calls(const YamlNode& script, TaskReading& reading);

}  // namespace agent_run
