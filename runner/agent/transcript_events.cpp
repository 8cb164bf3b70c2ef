#include "agent/transcript_events.h"

#include "report/report_writers.h"

namespace agent_run {

namespace {

Json failed_tries_to_json(const std::vector<ModelTryRecord>& tries) {
  Json list = Json::array();
  for (const ModelTryRecord& failed : tries) {
    list.push(Json::object()
                  .set("try", failed.try_number)
                  .set("status", failed.status)
                  .set("error_type", failed.error_type)
                  .set("message", failed.message)
                  .set("request_id", failed.request_id)
                  .set("wait_ms", failed.wait_ms));
  }
  return list;
}

Json thinking_to_json(const std::vector<ThinkingBlock>& blocks) {
  Json list = Json::array();
  for (const ThinkingBlock& block : blocks) {
    list.push(block.redacted_data.empty() ? Json(block.thinking) : Json("(redacted thinking)"));
  }
  return list;
}

Json tool_result_to_json(const ToolResult& result) {
  Json images = Json::array();
  for (const ImageBlock& image : result.images) {
    images.push(Json::object().set("media_type", image.media_type).set("base64_bytes", image.data_base64.size()));
  }
  Json json =
      Json::object().set("call_id", result.call_id).set("content", result.content).set("is_error", result.is_error);
  if (!result.images.empty()) json.set("images", std::move(images));
  return json;
}

}  // namespace

Json message_to_json(const Message& message) {
  Json json = Json::object().set("role", message.role == Role::user ? "user" : "assistant");
  if (!message.thinking.empty()) json.set("thinking", thinking_to_json(message.thinking));
  if (!message.text.empty()) json.set("text", message.text);
  if (!message.tool_calls.empty()) {
    Json calls = Json::array();
    for (const ToolCall& call : message.tool_calls) {
      calls.push(Json::object().set("id", call.id).set("name", call.name).set("input", call.input));
    }
    json.set("tool_calls", std::move(calls));
  }
  if (!message.tool_results.empty()) {
    Json results = Json::array();
    for (const ToolResult& result : message.tool_results) results.push(tool_result_to_json(result));
    json.set("tool_results", std::move(results));
  }
  return json;
}

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

Json request_event(int turn, const std::string& model, const Conversation& conversation, std::size_t first_new,
                   std::int64_t context_tokens) {
  Json messages = Json::array();
  for (std::size_t i = first_new; i < conversation.messages.size(); ++i)
    messages.push(message_to_json(conversation.messages[i]));
  return Json::object()
      .set("type", "request")
      .set("turn", turn)
      .set("model", model)
      .set("message_count", conversation.messages.size())
      .set("context_tokens", context_tokens)
      .set("new_messages", std::move(messages));
}

Json response_event(int turn, const ModelTurn& response, const ModelCallRecord& call) {
  Json calls = Json::array();
  for (const ToolCall& tool_call : response.message.tool_calls) {
    calls.push(Json::object().set("id", tool_call.id).set("name", tool_call.name).set("input", tool_call.input));
  }
  Json event = Json::object()
                   .set("type", "response")
                   .set("turn", turn)
                   .set("text", response.message.text)
                   .set("tool_calls", std::move(calls))
                   .set("stop_reason", to_string(response.stop_reason))
                   .set("usage", usage_to_json(response.usage));
  if (!response.message.thinking.empty()) event.set("thinking", thinking_to_json(response.message.thinking));
  if (!response.truncated_call.empty()) event.set("truncated_call", response.truncated_call);
  if (!call.request_id.empty()) event.set("request_id", call.request_id);
  if (!call.response_model.empty()) event.set("model", call.response_model);
  if (!call.failed_tries.empty()) event.set("failed_tries", failed_tries_to_json(call.failed_tries));
  return event;
}

Json model_error_event(const ModelCallRecord& call) {
  return Json::object()
      .set("type", "model_error")
      .set("turn", call.turn)
      .set("message", call.error)
      .set("failed_tries", failed_tries_to_json(call.failed_tries));
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

Json context_event_json(const ContextEvent& event) {
  return Json::object()
      .set("type", "context")
      .set("turn", event.turn)
      .set("kind", event.kind)
      .set("tokens_before", event.tokens_before)
      .set("tokens_after", event.tokens_after)
      .set("results_pruned", event.results_pruned)
      .set("cost_usd", event.cost_usd ? Json(*event.cost_usd) : Json(nullptr))
      .set("message", event.message);
}

Json notice_event(int turn, const std::string& text) {
  return Json::object().set("type", "notice").set("turn", turn).set("text", text);
}

Json tools_changed_event(int turn, const std::vector<ToolsChange>& changes, const std::vector<ToolSchema>& tools) {
  Json list = Json::array();
  for (const ToolsChange& change : changes) {
    Json added = Json::array();
    for (const std::string& name : change.added) added.push(name);
    Json removed = Json::array();
    for (const std::string& name : change.removed) removed.push(name);
    Json entry = Json::object().set("source", change.source).set("added", std::move(added)).set("removed", std::move(removed));
    if (!change.error.empty()) entry.set("error", change.error);
    list.push(std::move(entry));
  }
  Json names = Json::array();
  for (const ToolSchema& tool : tools) names.push(tool.name);
  return Json::object()
      .set("type", "tools_changed")
      .set("turn", turn)
      .set("changes", std::move(list))
      .set("tools", std::move(names));
}

Json sent_back_event(int turn, const std::string& review, const std::string& message) {
  return Json::object().set("type", "sent_back").set("turn", turn).set("review", review).set("message", message);
}

Json stop_event(AgentStop stop, const std::string& message) {
  return Json::object().set("type", "stop").set("stop", to_string(stop)).set("message", message);
}

}  // namespace agent_run
