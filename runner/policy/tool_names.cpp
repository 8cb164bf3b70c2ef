#include "policy/tool_names.h"

#include "search/glob_pattern.h"

#include <algorithm>

namespace agent_run {

namespace {

/// True when `name` matches the glob `pattern` (only `*` reaches here: the loader allows no other).
bool glob_matches(std::string_view pattern, std::string_view name) {
  Expected<GlobPattern> glob = GlobPattern::compile(pattern);
  return glob && glob->matches(name);
}

}  // namespace

std::optional<McpName> parse_mcp_name(std::string_view name) {
  if (name.substr(0, 5) != "mcp__") return std::nullopt;
  std::string_view rest = name.substr(5);
  std::size_t separator = rest.find("__");
  McpName parsed{std::string(rest.substr(0, separator)), ""};
  if (separator != std::string_view::npos) parsed.tool = std::string(rest.substr(separator + 2));
  if (parsed.server.empty()) return std::nullopt;
  return parsed;
}

std::optional<std::string> mcp_server_name_problem(std::string_view server) {
  const std::string quoted = "'" + std::string(server) + "'";
  bool characters_ok = std::all_of(server.begin(), server.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
           c == '*';
  });
  if (server.empty() || !characters_ok) {
    return "the MCP server name " + quoted + " may hold only letters, digits, '-' and '_'";
  }
  if (server.front() == '_' || server.back() == '_' || server.find("__") != std::string_view::npos) {
    return "the MCP server name " + quoted +
           " starts or ends with '_' or holds '__', so mcp__SERVER__TOOL names "
           "with it could be read as another server's";
  }
  return std::nullopt;
}

bool tool_pattern_matches(std::string_view pattern, std::string_view tool_name) {
  if (pattern.substr(0, 5) != "mcp__") return pattern == tool_name;
  std::optional<McpName> wanted = parse_mcp_name(pattern);
  std::optional<McpName> actual = parse_mcp_name(tool_name);
  if (!wanted || !actual || actual->tool.empty() || mcp_server_name_problem(actual->server)) return false;
  if (!glob_matches(wanted->server, actual->server)) return false;
  return wanted->tool.empty() || glob_matches(wanted->tool, actual->tool);
}

}  // namespace agent_run
