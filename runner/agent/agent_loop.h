#pragma once

#include "agent/agent_observer.h"
#include "agent/limits.h"
#include "base/clock.h"
#include "model/model_client.h"
#include "policy/policy.h"
#include "report/run_report.h"
#include "tools/tool_registry.h"

#include <string>
#include <vector>

namespace agent_run {

/// How the agent loop went beyond what its AgentRecord says: the stop explained, the model's last
/// words and where its time went.
struct AgentRun {
  std::string message;     // a sentence for a person when the stop is not end_turn
  std::string final_text;  // the model's last words: the text of its last turn that had any
  long long model_ms = 0;
  long long tools_ms = 0;
};

/// The agent loop: ask the model, let the policy decide each tool call, run the allowed ones, feed
/// the results back, and stop when the model ends its turn or a limit is hit.
class AgentLoop {
 public:
  /// `observers` hear every step (the transcript, the progress line); none is owned.
  AgentLoop(ModelClient& model, const ToolRegistry& tools, const Policy& policy, const Clock& clock,
            std::vector<AgentObserver*> observers = {});

  /// Runs the loop, filling in `record` (turns, calls, edits, usage, model calls, warnings, and
  /// the stop when it ends) as it goes.
  AgentRun run(const std::string& prompt, const Limits& limits, const ToolScope& scope, SessionState& session,
               AgentRecord& record);

 private:
  std::optional<AgentStop> limit_reached(const AgentRecord& record, const Limits& limits,
                                         Clock::SteadyTime deadline) const;
  Expected<ModelTurn> ask_model(const Conversation& conversation, AgentRecord& record, AgentRun& run);
  Message answer_tool_calls(const std::vector<ToolCall>& calls, const ToolScope& scope, SessionState& session,
                            const Limits& limits, Clock::SteadyTime deadline, AgentRecord& record, AgentRun& run);
  ToolResult answer_tool_call(const ToolCall& call, const ToolScope& scope, SessionState& session,
                              std::chrono::milliseconds timeout, AgentRecord& record, AgentRun& run);
  /// Tells every observer: `notify([&](AgentObserver& o) { o.turn(...); })`.
  template <typename Call>
  void notify(const Call& call) {
    for (AgentObserver* observer : m_observers) call(*observer);
  }
  void note_unenforced_cost_limit(AgentRecord& record, const Limits& limits) const;

  ModelClient& m_model;
  const ToolRegistry& m_tools;
  const Policy& m_policy;
  const Clock& m_clock;
  std::vector<AgentObserver*> m_observers;
  std::vector<ToolSchema> m_schemas;
};

/// The system prompt every attempt starts with: the rules of a run with nobody watching.
std::string system_prompt();

}  // namespace agent_run
