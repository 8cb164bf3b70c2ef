#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace agent_run {

/// The parts of an MCP tool name `mcp__SERVER__TOOL`, split at the first two `__`.
struct McpName {
  std::string server;
  std::string tool;  // empty in a pattern naming a whole server (`mcp__github`)
};

/// The server and tool of `name`, or nullopt when it does not start with `mcp__` and a server.
std::optional<McpName> parse_mcp_name(std::string_view name);

/// What is wrong with an MCP server name (or a glob of one): only letters, digits, '-' and single
/// inner '_', so that `mcp__SERVER__TOOL` always splits one way; nullopt when it is fine.
std::optional<std::string> mcp_server_name_problem(std::string_view server);

/// True when a rule's tool entry names `tool_name`: a built-in name exactly; an MCP pattern on the
/// parsed server and tool, each a glob (`mcp__github__get_*`, `mcp__*`), never as a string prefix;
/// `mcp__SERVER` names every tool of that server.
bool tool_pattern_matches(std::string_view pattern, std::string_view tool_name);

}  // namespace agent_run
