#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

namespace agent_run {

/// Caps on one attempt (the task file's `limits:` key); a limit that is hit ends the attempt as failed.
struct Limits {
  int turns = 30;                                                    // model round trips
  std::optional<std::int64_t> tokens;                                // input + output tokens, all turns
  std::optional<double> cost_usd;                                    // only enforceable when prices are known
  std::chrono::milliseconds time = std::chrono::minutes(15);         // wall time of the agent loop
  std::chrono::milliseconds tool_timeout = std::chrono::minutes(2);  // one tool call, one check, one setup command
};

}  // namespace agent_run
