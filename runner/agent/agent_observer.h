#pragma once

#include "model/conversation.h"
#include "report/model_call.h"
#include "report/outcome.h"
#include "report/run_report.h"
#include "tools/tool_call.h"

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
  /// A request for `turn` (1-based) is about to go to `model` with the whole conversation so far.
  virtual void request(int /*turn*/, const std::string& /*model*/, const Conversation& /*conversation*/) {}
  /// The model answered `turn`; `call` has its request id, answering model and failed tries.
  virtual void turn(int /*turn*/, const ModelTurn& /*response*/, const ModelCallRecord& /*call*/) {}
  /// A call to the model produced no turn (`call` says why, with every failed try).
  virtual void model_error(const ModelCallRecord& /*call*/) {}
  /// One tool call was answered: decided and, when allowed, run.
  virtual void tool_result(const ToolCall& /*call*/, const ToolCallRecord& /*record*/, const ToolResult& /*result*/) {}
  /// The loop stopped; `message` explains a stop other than end_turn.
  virtual void stop(AgentStop /*stop*/, const std::string& /*message*/) {}
};

}  // namespace agent_run
