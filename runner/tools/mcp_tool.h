#pragma once

#include "mcp/elicitation.h"
#include "mcp/mcp_client.h"
#include "tools/ask_user_answers.h"
#include "tools/tool.h"

#include <memory>
#include <optional>
#include <string>

namespace agent_run {

/// One tool of an MCP server as the agent's tool `mcp__SERVER__TOOL`: the server's description and
/// input schema as given; a call goes to the server with the call's timeout, and the result comes
/// back as text (mcp/call_result_text) with its images as pictures the model can see. When the
/// server's resources are offered (`reads_resources`), a result with resource links says which
/// tool reads them.
class McpTool final : public Tool {
 public:
  enum class ResourceReader { none, offered };
  McpTool(std::string server, McpToolInfo info, McpClient& client, ResourceReader reads_resources);
  ToolSchema schema() const override;
  ToolOutput run(const Json& input, const ToolScope& scope, SessionState& session,
                 std::chrono::milliseconds timeout) override;

 private:
  std::string m_server;
  McpToolInfo m_info;
  McpClient& m_client;
  ResourceReader m_reads_resources;
};

/// What one call of a server's tool (or of its resources) came to, for the model: the result as
/// text with its images; once the server has ended mid-attempt, that it is unavailable and why.
ToolOutput mcp_tool_output(const McpCallResult& result, const std::string& server, const McpClient& client);

/// `mcp__SERVER__TOOL`.
std::string mcp_tool_name(const std::string& server, const std::string& tool);

/// Why the tool cannot be offered to the model (model APIs take tool names of at most 64 letters,
/// digits, '_' and '-'), or nullopt when it can.
std::optional<std::string> mcp_tool_name_problem(const std::string& server, const std::string& tool);

/// Answers a server's elicitations by the task's `answers:`, as ask_user's questions are: the first
/// rule whose pattern matches the form's message fills it with its `choose:` (mcp/fill_form);
/// `otherwise: first` accepts the form's defaults when every required field has one; anything
/// else declines, since no human is there.
ElicitationHandler elicitation_by_answers(const AskUserAnswers& answers);

}  // namespace agent_run
