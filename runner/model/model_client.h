#pragma once

#include "base/clock.h"
#include "base/expected.h"
#include "model/conversation.h"
#include "report/model_call.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// Produces the next assistant turn for a conversation: a real model API, the scripted model, or
/// a recording being replayed. The seam between the agent loop and the world of models.
class ModelClient {
 public:
  virtual ~ModelClient() = default;

  /// The `provider/name` this client talks to, as written in reports.
  virtual std::string model_name() const = 0;

  /// Fails when no turn could be had (API unreachable, retries exhausted); the attempt then ends
  /// as an error. Anything the model says, including a refusal, is a turn.
  virtual Expected<ModelTurn> complete(const Conversation& conversation, const std::vector<ToolSchema>& tools) = 0;

  /// The time (on the loop's Clock) after which complete() must give up, waits included: the
  /// attempt's wall-time limit. Clients that never block may ignore it.
  virtual void set_deadline(Clock::SteadyTime deadline) { (void)deadline; }

  /// What the last complete() went through on the wire: request id, answering model and the
  /// failed tries. The caller fills in the turn, usage and outcome. Empty for clients without an API.
  virtual ModelCallRecord last_call() const { return {}; }

  /// The model's context window in tokens, for context_status; nullopt when not known.
  virtual std::optional<std::int64_t> context_window() const { return std::nullopt; }
};

}  // namespace agent_run
