#pragma once

#include "agent/agent_observer.h"
#include "agent/agent_settings.h"
#include "agent/limits.h"
#include "base/clock.h"
#include "model/model_client.h"
#include "policy/policy.h"
#include "report/run_report.h"
#include "tools/tool_registry.h"

#include <string>
#include <vector>

namespace agent_run {

class ToolUpdates;

/// How the agent loop went beyond what its AgentRecord says: the stop explained, the model's last
/// words and where its time went.
struct AgentRun {
  std::string message;     // a sentence for a person when the stop is not end_turn
  std::string final_text;  // the model's last words: the text of its last turn that had any
  long long model_ms = 0;
  long long tools_ms = 0;
};

/// The agent loop: ask the model, let the policy decide each tool call, run the allowed ones, feed
/// the results back, and stop when the model ends its turn (and every review accepts its work) or a
/// limit is hit. Before each request it keeps the conversation inside the model's context window:
/// it prunes old tool results, then compacts, and only when neither helps ends the attempt at the
/// window, cleanly.
class AgentLoop {
 public:
  /// `observers` hear every step (the transcript, the progress line); none is owned.
  AgentLoop(ModelClient& model, const ToolRegistry& tools, const Policy& policy, const Clock& clock,
            std::vector<AgentObserver*> observers = {});
  /// The loop keeps a reference to the policy: a temporary one would dangle (refused here).
  AgentLoop(ModelClient& model, const ToolRegistry& tools, Policy&& policy, const Clock& clock,
            std::vector<AgentObserver*> observers = {}) = delete;

  /// Runs the loop, filling in `record` (turns, calls, edits, usage, model calls, context, warnings,
  /// and the stop when it ends) as it goes.
  AgentRun run(const AgentRequest& request, const ToolScope& scope, SessionState& session, AgentRecord& record);

  /// The same with the built-in system prompt and default settings around `prompt` and `limits`.
  AgentRun run(const std::string& prompt, const Limits& limits, const ToolScope& scope, SessionState& session,
               AgentRecord& record);

  /// Asked before each model request whether the tools changed (an MCP server's list_changed):
  /// when they did, the request offers the registry's tools as they are then. Not owned; null: never.
  void take_tool_updates(ToolUpdates* updates) { m_updates = updates; }

 private:
  ModelClient& m_model;
  const ToolRegistry& m_tools;
  const Policy& m_policy;
  const Clock& m_clock;
  std::vector<AgentObserver*> m_observers;
  std::vector<ToolSchema> m_schemas;
  ToolUpdates* m_updates = nullptr;
};

}  // namespace agent_run
