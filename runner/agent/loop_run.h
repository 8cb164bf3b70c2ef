#pragma once

// Inside the agent loop (agent_loop.cpp, loop_context.cpp): one run's state and steps.

#include "agent/agent_loop.h"
#include "agent/context_window.h"
#include "agent/last_turn_notice.h"

#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// What every run of one AgentLoop shares: its model, tools, policy, clock and observers.
struct LoopParts {
  ModelClient& model;
  const ToolRegistry& tools;
  const Policy& policy;
  const Clock& clock;
  const std::vector<AgentObserver*>& observers;
  const std::vector<ToolSchema>& schemas;
  ToolUpdates* updates;  // null: the tools never change
};

/// One run of the agent loop: the conversation, how full it is, and the steps of a turn. run()
/// reads as the loop's table of contents.
class LoopRun {
 public:
  LoopRun(const LoopParts& parts, const AgentRequest& request, const ToolScope& scope, SessionState& session,
          AgentRecord& record);

  AgentRun run();

 private:
  // agent_loop.cpp: the turn.
  void start();
  bool stopped_before_turn();
  void refresh_tools();
  void send_notice_if_due();
  Expected<ModelTurn> ask_model(const Conversation& conversation, bool compaction);
  void stop_on_model_error(const Error& error);
  void finish(const ModelTurn& turn);
  Message answer_tool_calls(const std::vector<ToolCall>& calls);
  ToolResult answer_tool_call(const ToolCall& call, std::chrono::milliseconds timeout);
  void stop(AgentStop stop, std::string message);
  void end();
  std::optional<AgentStop> limit_reached() const;
  bool cancelled() const;
  std::chrono::milliseconds elapsed() const;

  // loop_context.cpp: the context window.
  bool make_room();
  bool compact();
  bool learn_refusal(const ModelTurn& turn);
  void prune(PruneDepth depth);
  void record_context(ContextEvent event);

  /// Tells every observer: `notify([&](AgentObserver& o) { o.turn(...); })`.
  template <typename Call>
  void notify(const Call& call) {
    for (AgentObserver* observer : m_parts.observers) call(*observer);
  }

  const LoopParts& m_parts;
  const AgentRequest& m_request;
  const ToolScope& m_scope;
  SessionState& m_session;
  AgentRecord& m_record;
  AgentRun m_run;
  std::vector<ToolSchema> m_schemas;  // offered with each request: the parts' at first, anew after a change
  Conversation m_conversation;
  ContextWindow m_context;
  LastTurnNotice m_notice;
  Clock::SteadyTime m_started;
  Clock::SteadyTime m_deadline;
  int m_refusals_in_a_row = 0;          // requests the API refused as too long since the last answer
  int m_no_compaction_before_turn = 0;  // after a compaction failed, the next waits a few turns
  std::string m_last_feedback;          // the latest check failures sent back, kept across a compaction
};

}  // namespace agent_run
