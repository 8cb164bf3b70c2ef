#pragma once

#include "base/json.h"
#include "model/conversation.h"
#include "report/model_call.h"
#include "report/run_report.h"
#include "tools/tool_updates.h"

#include <string>
#include <vector>

namespace agent_run {

// The lines of transcript.jsonl: what the model was told, what it said, what each call returned.
Json prompt_event(const Conversation& conversation, const std::vector<ToolSchema>& tools);
/// A call to the model: the messages added since the previous call (the first call: all of them),
/// so the transcript holds everything the model saw without repeating the history each turn.
Json request_event(int turn, const std::string& model, const Conversation& conversation, std::size_t first_new,
                   std::int64_t context_tokens);
/// What the model answered, with the request id and any tries that failed before.
Json response_event(int turn, const ModelTurn& response, const ModelCallRecord& call);
/// A model call that produced no turn, with every failed try.
Json model_error_event(const ModelCallRecord& call);
Json tool_result_event(const ToolCall& call, const ToolCallRecord& record, const ToolResult& result);
Json stop_event(AgentStop stop, const std::string& message);
/// A pruning, compaction or other step taken to stay inside the context window.
Json context_event_json(const ContextEvent& event);
/// The notice that the agent's budget is nearly spent, added to the next request.
Json notice_event(int turn, const std::string& text);
/// The tools offered changed before the request for `turn`: what each source added and removed,
/// and every tool offered from then on.
Json tools_changed_event(int turn, const std::vector<ToolsChange>& changes, const std::vector<ToolSchema>& tools);
/// A review that sent the agent's finished work back (output_schema, checks), with its message.
Json sent_back_event(int turn, const std::string& review, const std::string& message);

/// A message as JSON: role, text, thinking, tool calls, tool results (images by type and size).
Json message_to_json(const Message& message);

}  // namespace agent_run
