#include "model/openai_api.h"

namespace agent_run {

namespace {

Json text_part(const std::string& text) { return Json::object().set("type", "text").set("text", text); }

Json image_part(const ImageBlock& image) {
  Json url = Json::object().set("url", "data:" + image.media_type + ";base64," + image.data_base64);
  return Json::object().set("type", "image_url").set("image_url", std::move(url));
}

Json assistant_message(const Message& message) {
  Json json = Json::object().set("role", "assistant");
  json.set("content", message.text.empty() && !message.tool_calls.empty() ? Json(nullptr) : Json(message.text));
  if (!message.tool_calls.empty()) {
    Json calls = Json::array();
    for (const ToolCall& call : message.tool_calls) {
      Json function = Json::object().set("name", call.name).set("arguments", call.input.dump());
      calls.push(Json::object().set("id", call.id).set("type", "function").set("function", std::move(function)));
    }
    json.set("tool_calls", std::move(calls));
  }
  return json;
}

/// Tool results become `tool` messages; their images, which a `tool` message cannot carry,
/// follow in one user message, each labelled with its call.
void append_user_messages(const Message& message, Json& list) {
  Json images = Json::array();
  for (const ToolResult& result : message.tool_results) {
    list.push(Json::object()
                  .set("role", "tool")
                  .set("tool_call_id", result.call_id)
                  .set("content", result.content.empty() ? std::string("(no output)") : result.content));
    if (result.images.empty()) continue;
    images.push(text_part("Images returned by tool call " + result.call_id + ":"));
    for (const ImageBlock& image : result.images) images.push(image_part(image));
  }
  if (!images.as_array().empty()) list.push(Json::object().set("role", "user").set("content", std::move(images)));
  if (!message.text.empty() || message.tool_results.empty()) {
    list.push(Json::object().set("role", "user").set("content", message.text));
  }
}

Json tools_json(const std::vector<ToolSchema>& tools) {
  Json list = Json::array();
  for (const ToolSchema& tool : tools) {
    Json function =
        Json::object().set("name", tool.name).set("description", tool.description).set("parameters", tool.input_schema);
    list.push(Json::object().set("type", "function").set("function", std::move(function)));
  }
  return list;
}

/// Chat Completions over HTTP.
class OpenAiApi final : public ProviderApi {
 public:
  OpenAiApi(ApiEndpoint endpoint, RequestSettings settings)
      : m_endpoint(std::move(endpoint)), m_settings(std::move(settings)) {
    while (!m_endpoint.base_url.empty() && m_endpoint.base_url.back() == '/') m_endpoint.base_url.pop_back();
  }

  HttpRequest build_request(const Conversation& conversation, const std::vector<ToolSchema>& tools) const override {
    HttpRequest request;
    request.url = m_endpoint.base_url + "/chat/completions";
    request.headers = {{"content-type", "application/json"},
                       {"accept", "text/event-stream"},
                       {"user-agent", "agent-run/" AGENT_RUN_VERSION}};
    if (!m_endpoint.api_key.empty()) request.headers.push_back({"authorization", "Bearer " + m_endpoint.api_key});
    request.body = openai_request_body(conversation, tools, m_settings).dump();
    return request;
  }
  std::unique_ptr<StreamDecoder> make_decoder() const override { return std::make_unique<OpenAiStreamDecoder>(); }
  ApiErrorBody parse_error_body(std::string_view body) const override { return parse_openai_error(body); }
  std::string request_id_header() const override { return "x-request-id"; }
  std::chrono::milliseconds retry_after_cap() const override { return std::chrono::seconds(120); }
  std::string key_variable() const override { return "OPENAI_API_KEY"; }
  std::string url_variable() const override { return "OPENAI_BASE_URL"; }
  std::string endpoint_url() const override { return url_for_messages(m_endpoint.base_url + "/chat/completions"); }

 private:
  ApiEndpoint m_endpoint;
  RequestSettings m_settings;
};

}  // namespace

Json openai_request_body(const Conversation& conversation, const std::vector<ToolSchema>& tools,
                         const RequestSettings& settings) {
  Json messages = Json::array();
  if (!conversation.system.empty()) {
    messages.push(Json::object().set("role", "system").set("content", conversation.system));
  }
  for (const Message& message : conversation.messages) {
    if (message.role == Role::assistant) messages.push(assistant_message(message));
    else append_user_messages(message, messages);
  }
  Json body = Json::object().set("model", settings.model).set("messages", std::move(messages));
  if (!tools.empty()) body.set("tools", tools_json(tools));
  if (settings.max_output_tokens) body.set("max_completion_tokens", *settings.max_output_tokens);
  if (settings.temperature) body.set("temperature", *settings.temperature);
  if (settings.reasoning_effort) body.set("reasoning_effort", *settings.reasoning_effort);
  body.set("stream", true);
  body.set("stream_options", Json::object().set("include_usage", true));
  return body;
}

std::unique_ptr<ProviderApi> make_openai_api(ApiEndpoint endpoint, RequestSettings settings) {
  return std::make_unique<OpenAiApi>(std::move(endpoint), std::move(settings));
}

}  // namespace agent_run
