#pragma once

#include "base/json.h"
#include "model/conversation.h"
#include "report/run_report.h"

#include <string>
#include <vector>

namespace agent_run {

// The lines of transcript.jsonl: what the model was told, what it said, what each call returned.
Json prompt_event(const Conversation& conversation, const std::vector<ToolSchema>& tools);
Json response_event(int turn, const ModelTurn& response);
Json tool_result_event(const ToolCall& call, const ToolCallRecord& record, const ToolResult& result);
Json stop_event(const std::string& stop, const std::string& message);

}  // namespace agent_run
