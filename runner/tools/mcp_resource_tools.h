#pragma once

#include "mcp/mcp_client.h"
#include "tools/tool.h"

#include <memory>
#include <string>
#include <vector>

namespace agent_run {

/// The names of the two tools a server that offers resources gets: `mcp__SERVER__list_resources`
/// and `mcp__SERVER__read_resource`. A pair per server, not one shared pair taking the server's
/// name as Claude Code's ListMcpResources/ReadMcpResource do, so that the policy's rules and a
/// task's `tools:` cover them as they cover the server's other tools (`allow: mcp__github`,
/// `deny: mcp__github__*`) without looking inside a call's input.
inline constexpr const char* k_list_resources_tool = "list_resources";
inline constexpr const char* k_read_resource_tool = "read_resource";

/// `mcp__SERVER__list_resources`: the resources and resource templates one server lists, a line
/// each (every page up to a cap; the cursor to go on from when there are more).
class McpListResourcesTool final : public Tool {
 public:
  McpListResourcesTool(std::string server, McpClient& client);
  ToolSchema schema() const override;
  ToolOutput run(const Json& input, const ToolScope& scope, SessionState& session,
                 std::chrono::milliseconds timeout) override;

 private:
  std::string m_server;
  McpClient& m_client;
};

/// `mcp__SERVER__read_resource`: one resource by its URI (one listed, a template filled in, or a
/// tool result's resource link), as text, with images as pictures the model can see.
class McpReadResourceTool final : public Tool {
 public:
  McpReadResourceTool(std::string server, McpClient& client);
  ToolSchema schema() const override;
  ToolOutput run(const Json& input, const ToolScope& scope, SessionState& session,
                 std::chrono::milliseconds timeout) override;

 private:
  std::string m_server;
  McpClient& m_client;
};

/// The pair for `server`, in the order list, read.
std::vector<std::unique_ptr<Tool>> mcp_resource_tools(const std::string& server, McpClient& client);

}  // namespace agent_run
