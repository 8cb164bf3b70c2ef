#pragma once

#include "batch/run_attempt.h"
#include "mcp/mcp_client.h"
#include "mcp/server_spec.h"
#include "report/run_report.h"
#include "task/task.h"
#include "tools/session_state.h"
#include "tools/tool.h"
#include "tools/tool_registry.h"
#include "tools/tool_updates.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// The MCP servers of one attempt. All start together when the attempt's agent is about to run
/// (the model must see their tools from its first turn, so none can wait for a first call), each
/// its own process or session for this attempt only; their tools join the attempt's registry as
/// mcp__SERVER__TOOL, and a server that offers resources gets mcp__SERVER__list_resources and
/// mcp__SERVER__read_resource (tools/mcp_resource_tools); a server that announces notifications/tools/list_changed is listed again
/// before the next model request (update()); they end when the agent loop does, and the report
/// records each.
class AttemptMcpServers final : public ToolUpdates {
 public:
  /// Starts every server of `task` and adds the tools of those that started to `tools`. A stdio
  /// server gets the tools' environment (less the task's secrets), the session's process marker
  /// (so what it leaves behind is killed with the attempt) and the attempt's sandbox unless its
  /// entry turns it off; elicitations are answered by the task's `answers:`. A server that did not
  /// start marks its tools unavailable in `tools`, with why. `tools` must outlive this.
  AttemptMcpServers(const Task& task, const ToolScope& scope, const SessionState& session,
                    const AttemptSettings& settings, ToolRegistry& tools);
  ~AttemptMcpServers() override;
  AttemptMcpServers(const AttemptMcpServers&) = delete;
  AttemptMcpServers& operator=(const AttemptMcpServers&) = delete;

  /// Why a server the task marks `required: true` could not start, if one could not.
  std::optional<std::string> required_failure() const;
  /// One line per server that did not start: its error and that its tools are missing, for the
  /// model's system prompt and the attempt's warnings.
  std::vector<std::string> unavailable() const;
  /// One line per tool a started server offers that the model cannot be offered (no inputSchema
  /// object, a schema that is not an object's, a name a model API refuses, ...), naming it and why.
  std::vector<std::string> skipped_tools() const;

  /// Lists again each server that announced notifications/tools/list_changed since it was last
  /// listed, and puts its tools as they are now in the registry; what changed, per server.
  std::vector<ToolsChange> update() override;

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
    std::uint64_t listed_at = 0;  // the client's tools_generation() that `tools` is current for
  };

  void offer_tools(Server& server);
  void offer_resource_tools(Server& server);

  ToolRegistry& m_registry;
  std::optional<std::vector<std::string>> m_listed;  // the task's `tools:`
  std::vector<Server> m_servers;
  bool m_finished = false;
};

}  // namespace agent_run
