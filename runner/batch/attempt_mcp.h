#pragma once

#include "batch/run_attempt.h"
#include "mcp/mcp_client.h"
#include "mcp/server_spec.h"
#include "report/run_report.h"
#include "task/task.h"
#include "tools/session_state.h"
#include "tools/tool.h"
#include "tools/tool_registry.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// The MCP servers of one attempt. All start together when the attempt's agent is about to run
/// (the model must see their tools from its first turn, so none can wait for a first call), each
/// its own process or session for this attempt only; their tools join the attempt's registry as
/// mcp__SERVER__TOOL; they end when the agent loop does, and the report records each.
class AttemptMcpServers {
 public:
  /// Starts every server of `task` and adds the tools of those that started to `tools`. A stdio
  /// server gets the tools' environment (less the task's secrets), the session's process marker
  /// (so what it leaves behind is killed with the attempt) and the attempt's sandbox unless its
  /// entry turns it off; elicitations are answered by the task's `answers:`.
  AttemptMcpServers(const Task& task, const ToolScope& scope, const SessionState& session,
                    const AttemptSettings& settings, ToolRegistry& tools);
  ~AttemptMcpServers();
  AttemptMcpServers(const AttemptMcpServers&) = delete;
  AttemptMcpServers& operator=(const AttemptMcpServers&) = delete;

  /// Why a server the task marks `required: true` could not start, if one could not.
  std::optional<std::string> required_failure() const;
  /// One line per server that did not start: its error and that its tools are missing, for the
  /// model's system prompt and the attempt's warnings.
  std::vector<std::string> unavailable() const;

  /// Closes every server and adds their records to the result. Call once, before the session's
  /// processes are stopped.
  void finish(AttemptResult& result);

 private:
  /// One server: its entry, its client when it started, and what the report will say.
  struct Server {
    McpServerSpec spec;
    std::unique_ptr<McpClient> client;
    McpServerRecord record;
    std::vector<McpToolInfo> tools;
  };

  void offer_tools(Server& server, const std::optional<std::vector<std::string>>& listed, ToolRegistry& tools);

  std::vector<Server> m_servers;
  bool m_finished = false;
};

}  // namespace agent_run
