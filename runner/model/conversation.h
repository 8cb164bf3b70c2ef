#pragma once

#include "report/usage.h"
#include "tools/tool_call.h"

#include <string>
#include <vector>

namespace agent_run {

/// What a tool call returned, as the model will read it.
struct ToolResult {
  std::string call_id;
  std::string content;
  bool is_error = false;
  std::vector<ImageBlock> images;
};

/// Reasoning the model showed before it answered. Anthropic wants it back, signed and unchanged,
/// in the next request of a tool loop; OpenAI-compatible servers never see it again.
struct ThinkingBlock {
  std::string thinking;
  std::string signature;
  std::string redacted_data;  // a `redacted_thinking` block: opaque, echoed as is
};

enum class Role { user, assistant };

/// One message of the conversation: the user's prompt or tool results, or the assistant's text and calls.
struct Message {
  Role role = Role::user;
  std::string text;
  std::vector<ToolCall> tool_calls;      // assistant messages
  std::vector<ToolResult> tool_results;  // user messages that answer tool calls
  std::vector<ThinkingBlock> thinking;   // assistant messages, before their text
};

/// The whole exchange with the model, provider-neutral.
struct Conversation {
  std::string system;
  std::vector<Message> messages;
};

/// Why the model stopped producing this turn.
enum class StopReason { end_turn, tool_use, max_tokens, refusal, context_window };

/// One model response: the assistant message and what it cost.
struct ModelTurn {
  Message message;
  StopReason stop_reason = StopReason::end_turn;
  Usage usage;
  std::string truncated_call;  // a tool call the output limit cut off: named here, never run
};

const char* to_string(StopReason reason);

}  // namespace agent_run
