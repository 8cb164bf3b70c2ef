#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace agent_run {

/// Where a stdio server runs relative to the attempt's sandbox.
enum class McpSandbox {
  inherit,  // inside the attempt's sandbox when it has one (the default)
  off,      // outside it, with the runner's rights: the entry says `sandbox: off`
};

/// One entry of `mcp_servers:`: how to reach one MCP server. Either `command` (stdio) or `url`
/// (streamable HTTP). Values in `env` and `headers` may hold `${VAR}`, filled in from agent-run's
/// environment only when the server is started, so the values never appear in a report.
struct McpServerSpec {
  std::string name;                                          // the key: tools are mcp__NAME__TOOL
  std::string origin;                                        // "FILE:LINE:COL" of the entry, for messages
  std::vector<std::string> command;                          // stdio: the program, then `args`
  std::vector<std::pair<std::string, std::string>> env;      // stdio: added to the server's environment
  std::optional<std::filesystem::path> cwd;                  // stdio: absolute, or relative to the workspace
  McpSandbox sandbox = McpSandbox::inherit;                  // stdio
  std::string url;                                           // HTTP: http:// or https://
  std::vector<std::pair<std::string, std::string>> headers;  // HTTP: sent with every request
  bool required = false;                                     // a server that cannot start fails the attempt
  std::optional<std::chrono::milliseconds> startup_timeout;  // initialize and tools/list; default 30 s

  bool is_stdio() const { return !command.empty(); }
};

}  // namespace agent_run
