#pragma once

#include "exec/process_table.h"
#include "report/run_report.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// How the attempt stands, for context_status. The agent loop keeps it current.
struct SessionStatus {
  int turns_used = 0;
  int turns_limit = 0;
  std::int64_t tokens_used = 0;  // input + output, every turn
  std::optional<std::int64_t> tokens_limit;
  bool tokens_estimated = false;         // counted by the runner, not reported by a provider
  std::optional<double> cost_usd = 0.0;  // nullopt: the price is unknown
  std::optional<double> cost_limit_usd;
  std::int64_t context_tokens = 0;             // the last request's input, cached input included
  std::optional<std::int64_t> context_window;  // the model's window, when known
  std::chrono::milliseconds elapsed{0};
  std::chrono::milliseconds time_limit{0};
};

/// What one attempt's tools change as they run: their processes and what they have seen and
/// recorded. The tools' read-only part is their ToolScope (tools/tool.h).
struct SessionState {
  ProcessTable processes;                    // background processes and escapes; all killed at the end
  std::map<std::string, std::string> reads;  // workspace-relative path -> hash of what read_file saw
  std::vector<TodoItem> todos;               // todo_write's last list
  std::vector<QuestionRecord> questions;     // every ask_user call
  SessionStatus status;                      // kept current by the agent loop, read by context_status
};

}  // namespace agent_run
