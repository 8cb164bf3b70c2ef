#pragma once

#include "report/usage.h"

#include <string>
#include <vector>

namespace agent_run {

/// One try of a model call that failed: what the API or the network said, and how long the
/// client waited before the next try.
struct ModelTryRecord {
  int try_number = 0;      // 1-based
  int status = 0;          // HTTP status; 0 when no response arrived
  std::string error_type;  // the API's (rate_limit_error, overloaded_error, ...) or ours:
                           // connection, timeout, stream.incomplete, stream.malformed, ...
  std::string message;
  std::string request_id;
  long long wait_ms = 0;  // before the next try; 0 when none followed
  long long duration_ms = 0;
};

/// One model call (one turn asked of the model): its usage, and the tries that failed before it
/// was answered or given up.
struct ModelCallRecord {
  int turn = 0;                  // 1-based, in the attempt
  std::string purpose = "turn";  // turn | compaction (a summary of the conversation, not a turn)
  std::string request_id;        // of the try that answered
  std::string response_model;    // the model the API says answered (often a dated version)
  std::string stop_reason;       // end_turn | tool_use | max_tokens | refusal | context_window; "" when it failed
  std::string error;             // why the call failed, when it did
  Usage usage;
  long long duration_ms = 0;  // every try and wait
  std::vector<ModelTryRecord> failed_tries;
};

}  // namespace agent_run
