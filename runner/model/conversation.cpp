#include "model/conversation.h"

namespace agent_run {

const char* to_string(StopReason reason) {
  switch (reason) {
    case StopReason::end_turn: return "end_turn";
    case StopReason::tool_use: return "tool_use";
    case StopReason::max_tokens: return "max_tokens";
    case StopReason::refusal: return "refusal";
    case StopReason::context_window: return "context_window";
  }
  return "unknown";
}

}  // namespace agent_run
