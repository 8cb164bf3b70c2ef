#pragma once

#include "mcp/server_launch.h"
#include "task/task.h"

#include <string>
#include <vector>

namespace agent_run {

/// `agent-run validate --mcp`: starts the MCP servers `task` declares (only those its script calls)
/// and checks each scripted call of their tools against what the live server lists: a tool it does
/// not have (with a "did you mean"), and the input against the tool's real input schema (unknown
/// and missing keys, wrong types), each problem `FILE:LINE:COL: ...` where it is written. A server
/// that does not start is a problem of the first call that needs it. The servers are closed again.
std::vector<std::string> check_mcp_script_calls(const Task& task, const McpLaunchContext& context);

}  // namespace agent_run
