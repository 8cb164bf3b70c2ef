#pragma once

#include "app/commands.h"
#include "mcp/elicitation.h"

#include <string>

namespace agent_run {

/// `agent-run mcp list|call SERVER ...`: a task author's look at an MCP server before writing a
/// policy for it. SERVER is a URL, a name from the `mcp_servers:` of --config FILE, or a command
/// after `--`. With MCP_CONFORMANCE_SCENARIO set and a URL alone, the conformance client.
int mcp_command(const CliOptions& options, const ProgramContext& context);

/// `agent-run mcp URL` as the MCP conformance suite's client mode runs it: connects, lists the
/// tools, calls each with arguments its schema allows, closes; exit 0 once it connected.
int mcp_conformance_client(const std::string& url, const std::string& scenario, const ProgramContext& context);

/// How elicitations are answered without a task: accepted with the form's defaults when every
/// required field has one, otherwise declined (nobody is there to fill it in).
ElicitationAnswer answer_with_defaults(const ElicitationRequest& request);

}  // namespace agent_run
