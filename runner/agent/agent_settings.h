#pragma once

#include "agent/limits.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// How the agent loop keeps the conversation inside the model's context window (the task's and the
/// configuration's `context:` key). Before a request would fill `threshold` of the window, old tool
/// results are pruned down to `target`; when that is not enough, the conversation is compacted.
struct ContextSettings {
  std::optional<std::int64_t> window;  // tokens; nullopt: the model's, else learnt from a refused request
  double threshold = 0.8;              // share of the window at which room is made
  double target = 0.5;                 // share pruning brings the conversation down to
  int keep_turns = 3;                  // the latest turns are never pruned (but when nothing else is left)
  bool compaction = true;              // false: prune only, then end the attempt at the window
};

/// How failed checks go back to the agent (the task's `check_feedback:` key).
struct CheckFeedback {
  int rounds = 0;                   // further rounds after the first failed checks; 0: none
  std::size_t output_bytes = 3000;  // of each failed check's output, its tail, sent back
};

/// When the agent is told its budget is nearly spent, so it answers instead of being cut mid-work.
struct LastTurnNoticeSettings {
  bool enabled = true;
  double budget_share = 0.9;  // tokens, cost or time used at which the notice goes out
};

class FinishReview;

/// Everything one run of the agent loop is given, beyond its tools and the model.
struct AgentRequest {
  std::string system_prompt;
  std::string prompt;  // the task's, the first user message
  Limits limits;
  ContextSettings context;
  LastTurnNoticeSettings notice;
  std::vector<std::string> secret_values;  // redacted from every tool result before the model sees it
  std::vector<FinishReview*> reviews;      // run in order when the model ends its turn; none owned
};

}  // namespace agent_run
