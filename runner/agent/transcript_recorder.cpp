#include "agent/transcript_recorder.h"

#include "agent/transcript_events.h"

namespace agent_run {

void TranscriptRecorder::started(const Conversation& conversation, const std::vector<ToolSchema>& tools) {
  m_writer.record(prompt_event(conversation, tools));
}

void TranscriptRecorder::request(int turn, const std::string& model, const Conversation& conversation,
                                 std::int64_t context_tokens) {
  m_writer.record(request_event(turn, model, conversation, m_messages_recorded, context_tokens));
  m_messages_recorded = conversation.messages.size();
}

void TranscriptRecorder::turn(int turn, const ModelTurn& response, const ModelCallRecord& call) {
  m_writer.record(response_event(turn, response, call));
}

void TranscriptRecorder::model_error(const ModelCallRecord& call) { m_writer.record(model_error_event(call)); }

void TranscriptRecorder::tool_result(const ToolCall& call, const ToolCallRecord& record, const ToolResult& result) {
  m_writer.record(tool_result_event(call, record, result));
}

void TranscriptRecorder::context_changed(const ContextEvent& event, const Conversation& conversation) {
  m_writer.record(context_event_json(event));
  if (event.kind == "compacted") m_messages_recorded = 0;  // the next request line shows the new conversation
  (void)conversation;
}

void TranscriptRecorder::tools_changed(int turn, const std::vector<ToolsChange>& changes,
                                       const std::vector<ToolSchema>& tools) {
  m_writer.record(tools_changed_event(turn, changes, tools));
}

void TranscriptRecorder::notice(int turn, const std::string& text) { m_writer.record(notice_event(turn, text)); }

void TranscriptRecorder::sent_back(int turn, const std::string& review, const std::string& message) {
  m_writer.record(sent_back_event(turn, review, message));
}

void TranscriptRecorder::stop(AgentStop stop, const std::string& message) {
  m_writer.record(stop_event(stop, message));
}

}  // namespace agent_run
