#include "model/anthropic_api.h"

namespace agent_run {

namespace {

constexpr int k_default_max_tokens = 8192;

Json ephemeral() { return Json::object().set("type", "ephemeral"); }

Json text_block(const std::string& text) { return Json::object().set("type", "text").set("text", text); }

Json image_block(const ImageBlock& image) {
  Json source = Json::object().set("type", "base64").set("media_type", image.media_type).set("data", image.data_base64);
  return Json::object().set("type", "image").set("source", std::move(source));
}

Json tool_result_block(const ToolResult& result) {
  Json block = Json::object().set("type", "tool_result").set("tool_use_id", result.call_id);
  if (result.images.empty()) {
    block.set("content", result.content.empty() ? std::string("(no output)") : result.content);
  } else {
    Json content = Json::array();
    if (!result.content.empty()) content.push(text_block(result.content));
    for (const ImageBlock& image : result.images) content.push(image_block(image));
    block.set("content", std::move(content));
  }
  if (result.is_error) block.set("is_error", true);
  return block;
}

Json thinking_block(const ThinkingBlock& thinking) {
  if (!thinking.redacted_data.empty()) {
    return Json::object().set("type", "redacted_thinking").set("data", thinking.redacted_data);
  }
  return Json::object().set("type", "thinking").set("thinking", thinking.thinking).set("signature", thinking.signature);
}

Json message_content(const Message& message) {
  Json content = Json::array();
  if (message.role == Role::assistant) {
    for (const ThinkingBlock& thinking : message.thinking) content.push(thinking_block(thinking));
  }
  for (const ToolResult& result : message.tool_results) content.push(tool_result_block(result));
  if (!message.text.empty()) content.push(text_block(message.text));
  for (const ToolCall& call : message.tool_calls) {
    Json input = call.input.is_object() ? call.input : Json::object();
    content.push(Json::object().set("type", "tool_use").set("id", call.id).set("name", call.name).set("input", input));
  }
  if (content.as_array().empty()) content.push(text_block("(no content)"));  // the API refuses empty content
  return content;
}

Json messages_json(const std::vector<Message>& messages) {
  Json list = Json::array();
  for (const Message& message : messages) {
    list.push(Json::object()
                  .set("role", message.role == Role::user ? "user" : "assistant")
                  .set("content", message_content(message)));
  }
  if (!list.as_array().empty()) {  // the latest turn's breakpoint: the next call reads up to here from the cache
    Json& last_content = list.as_array().back().as_object().back().second;
    last_content.as_array().back().set("cache_control", ephemeral());
  }
  return list;
}

Json tools_json(const std::vector<ToolSchema>& tools, bool cache_last) {
  Json list = Json::array();
  for (const ToolSchema& tool : tools) {
    list.push(Json::object()
                  .set("name", tool.name)
                  .set("description", tool.description)
                  .set("input_schema", tool.input_schema));
  }
  if (cache_last && !list.as_array().empty()) list.as_array().back().set("cache_control", ephemeral());
  return list;
}

/// The Messages API over HTTP.
class AnthropicApi final : public ProviderApi {
 public:
  AnthropicApi(ApiEndpoint endpoint, RequestSettings settings)
      : m_endpoint(std::move(endpoint)), m_settings(std::move(settings)) {
    while (!m_endpoint.base_url.empty() && m_endpoint.base_url.back() == '/') m_endpoint.base_url.pop_back();
  }

  HttpRequest build_request(const Conversation& conversation, const std::vector<ToolSchema>& tools) const override {
    HttpRequest request;
    request.url = m_endpoint.base_url + "/v1/messages";
    request.headers = {{"content-type", "application/json"},
                       {"accept", "text/event-stream"},
                       {"anthropic-version", "2023-06-01"},
                       {"user-agent", "agent-run/" AGENT_RUN_VERSION}};
    if (!m_endpoint.api_key.empty()) request.headers.push_back({"x-api-key", m_endpoint.api_key});
    request.body = anthropic_request_body(conversation, tools, m_settings).dump();
    return request;
  }
  std::unique_ptr<StreamDecoder> make_decoder() const override { return std::make_unique<AnthropicStreamDecoder>(); }
  ApiErrorBody parse_error_body(std::string_view body) const override { return parse_anthropic_error(body); }
  std::string request_id_header() const override { return "request-id"; }
  std::chrono::milliseconds retry_after_cap() const override { return std::chrono::seconds(60); }
  std::string key_variable() const override { return "ANTHROPIC_API_KEY"; }
  std::string url_variable() const override { return "ANTHROPIC_BASE_URL"; }
  std::string endpoint_url() const override { return url_for_messages(m_endpoint.base_url + "/v1/messages"); }

 private:
  ApiEndpoint m_endpoint;
  RequestSettings m_settings;
};

}  // namespace

Json anthropic_request_body(const Conversation& conversation, const std::vector<ToolSchema>& tools,
                            const RequestSettings& settings) {
  Json body = Json::object();
  body.set("model", settings.model).set("max_tokens", settings.max_output_tokens.value_or(k_default_max_tokens));
  if (settings.temperature) body.set("temperature", *settings.temperature);
  if (settings.thinking_budget) {
    body.set("thinking", Json::object().set("type", "enabled").set("budget_tokens", *settings.thinking_budget));
  }
  if (!tools.empty()) body.set("tools", tools_json(tools, conversation.system.empty()));
  if (!conversation.system.empty()) {  // the prefix breakpoint: tools and system, the same on every call
    Json system = Json::array();
    system.push(text_block(conversation.system).set("cache_control", ephemeral()));
    body.set("system", std::move(system));
  }
  body.set("messages", messages_json(conversation.messages));
  body.set("stream", true);
  return body;
}

std::unique_ptr<ProviderApi> make_anthropic_api(ApiEndpoint endpoint, RequestSettings settings) {
  return std::make_unique<AnthropicApi>(std::move(endpoint), std::move(settings));
}

}  // namespace agent_run
