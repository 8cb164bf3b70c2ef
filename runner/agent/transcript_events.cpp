#include "agent/transcript_events.h"

#include "report/report_writers.h"

namespace agent_run {

Json prompt_event(const Conversation& conversation, const std::vector<ToolSchema>& tools) {
  Json names = Json::array();
  for (const ToolSchema& tool : tools) names.push(tool.name);
  std::string prompt = conversation.messages.empty() ? "" : conversation.messages.front().text;
  return Json::object()
      .set("type", "prompt")
      .set("system", conversation.system)
      .set("prompt", prompt)
      .set("tools", std::move(names));
}

Json response_event(int turn, const ModelTurn& response) {
  Json calls = Json::array();
  for (const ToolCall& call : response.message.tool_calls) {
    calls.push(Json::object().set("id", call.id).set("name", call.name).set("input", call.input));
  }
  return Json::object()
      .set("type", "response")
      .set("turn", turn)
      .set("text", response.message.text)
      .set("tool_calls", std::move(calls))
      .set("stop_reason", to_string(response.stop_reason))
      .set("usage", usage_to_json(response.usage));
}

Json tool_result_event(const ToolCall& call, const ToolCallRecord& record, const ToolResult& result) {
  return Json::object()
      .set("type", "tool_result")
      .set("id", call.id)
      .set("name", call.name)
      .set("decision", record.decision)
      .set("rule_id", record.rule_id)
      .set("is_error", result.is_error)
      .set("duration_ms", record.duration_ms)
      .set("content", result.content);
}

Json stop_event(const std::string& stop, const std::string& message) {
  return Json::object().set("type", "stop").set("stop", stop).set("message", message);
}

}  // namespace agent_run
