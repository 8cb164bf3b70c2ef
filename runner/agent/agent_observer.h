#pragma once

#include "model/conversation.h"
#include "report/model_call.h"
#include "report/outcome.h"
#include "report/run_report.h"
#include "tools/tool_call.h"
#include "tools/tool_updates.h"

#include <cstdint>
#include <string>
#include <vector>

namespace agent_run {

/// Hears what the agent loop does as it does it, on the loop's thread: the transcript
/// (TranscriptRecorder) and the attempt's progress line (ProgressReporter, batch/) are the two.
/// Each call has a default that ignores it.
class AgentObserver {
 public:
  virtual ~AgentObserver() = default;
  /// The conversation starts: the system prompt, the task's prompt and the tools offered.
  virtual void started(const Conversation& /*conversation*/, const std::vector<ToolSchema>& /*tools*/) {}
  /// A request for `turn` (1-based) is about to go to `model` with the whole conversation so far,
  /// `context_tokens` big (the provider's count of the last request plus an estimate of what changed).
  virtual void request(int /*turn*/, const std::string& /*model*/, const Conversation& /*conversation*/,
                       std::int64_t /*context_tokens*/) {}
  /// The model answered `turn`; `call` has its request id, answering model and failed tries.
  virtual void turn(int /*turn*/, const ModelTurn& /*response*/, const ModelCallRecord& /*call*/) {}
  /// A call to the model produced no turn (`call` says why, with every failed try).
  virtual void model_error(const ModelCallRecord& /*call*/) {}
  /// One tool call was answered: decided and, when allowed, run.
  virtual void tool_result(const ToolCall& /*call*/, const ToolCallRecord& /*record*/, const ToolResult& /*result*/) {}
  /// The conversation was pruned or compacted (or could not be) to stay inside the context window;
  /// `conversation` is what it became. A compaction's model call is in `event.cost_usd`.
  virtual void context_changed(const ContextEvent& /*event*/, const Conversation& /*conversation*/) {}
  /// Before the request for `turn`, the tools offered changed (`changes`); `tools` is what the model
  /// is offered from this request on.
  virtual void tools_changed(int /*turn*/, const std::vector<ToolsChange>& /*changes*/,
                             const std::vector<ToolSchema>& /*tools*/) {}
  /// The agent was told before `turn` that its budget is nearly spent.
  virtual void notice(int /*turn*/, const std::string& /*text*/) {}
  /// A review (`output_schema`, `checks`) sent the agent's finished work back after `turn` with `message`.
  virtual void sent_back(int /*turn*/, const std::string& /*review*/, const std::string& /*message*/) {}
  /// The loop stopped; `message` explains a stop other than end_turn.
  virtual void stop(AgentStop /*stop*/, const std::string& /*message*/) {}
};

}  // namespace agent_run
