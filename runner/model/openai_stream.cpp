#include "model/openai_api.h"

#include "model/stream_support.h"

namespace agent_run {

namespace {

std::int64_t integer_at(const Json& object, const char* name) {
  const Json* value = object.find(name);
  return value && value->is_number() ? value->as_int() : 0;
}

StopReason stop_reason_of(const std::string& finish_reason, bool has_calls, bool refused) {
  if (refused || finish_reason == "content_filter") return StopReason::refusal;
  if (finish_reason == "length") return StopReason::max_tokens;
  if (has_calls || finish_reason == "tool_calls" || finish_reason == "function_call") return StopReason::tool_use;
  return StopReason::end_turn;
}

}  // namespace

ApiErrorBody parse_openai_error(std::string_view body) {
  ApiErrorBody error;
  auto json = parse_json(body);
  const Json* inner = json ? json->find("error") : nullptr;
  if (inner == nullptr) {
    error.message = error_text_of_body(body);
    return error;
  }
  if (inner->is_string()) {  // some compatible servers send {"error": "text"}
    error.message = inner->as_string();
    return error;
  }
  error.type = inner->get_string("type");
  error.code = inner->get_string("code");
  error.message = inner->get_string("message");
  return error;
}

DecodeStep OpenAiStreamDecoder::feed(const SseEvent& event) {
  if (event.data == "[DONE]") {
    m_done = true;
    return DecodeStep{DecodeStep::Kind::done, {}};
  }
  auto parsed = parse_event_data(event);
  if (auto* failure = std::get_if<ApiFailure>(&parsed)) return failed_step(std::move(*failure));
  const Json& data = std::get<Json>(parsed);
  if (const Json* error = data.find("error"); error && !error->is_null()) {
    return failed_step(failure_of_error_event(data));
  }
  if (m_model.empty()) m_model = data.get_string("model");
  if (const Json* usage = data.find("usage"); usage && usage->is_object()) read_usage(*usage);
  const Json* choices = data.find("choices");
  if (choices == nullptr || !choices->is_array() || choices->as_array().empty()) return DecodeStep{};
  const Json& choice = choices->as_array().front();
  if (const Json* delta = choice.find("delta"); delta && delta->is_object()) read_delta(*delta);
  if (const Json* reason = choice.find("finish_reason"); reason && reason->is_string()) {
    m_finish_reason = reason->as_string();
  }
  return DecodeStep{};
}

void OpenAiStreamDecoder::read_usage(const Json& usage) {
  m_usage_reported = true;
  const std::int64_t prompt = integer_at(usage, "prompt_tokens");
  std::int64_t cached = 0;
  std::int64_t cache_write = 0;
  if (const Json* details = usage.find("prompt_tokens_details"); details && details->is_object()) {
    cached = integer_at(*details, "cached_tokens");
    cache_write = integer_at(*details, "cache_write_tokens");
  }
  m_usage.input_tokens = std::max<std::int64_t>(prompt - cached - cache_write, 0);
  m_usage.cache_read_input_tokens = cached;
  m_usage.cache_creation_input_tokens = cache_write;
  m_usage.output_tokens = integer_at(usage, "completion_tokens");
  if (const Json* details = usage.find("completion_tokens_details"); details && details->is_object()) {
    m_usage.reasoning_tokens = integer_at(*details, "reasoning_tokens");
  }
}

void OpenAiStreamDecoder::read_delta(const Json& delta) {
  m_text += delta.get_string("content");
  m_refusal += delta.get_string("refusal");
  m_reasoning += delta.get_string("reasoning_content");  // vLLM, DeepSeek
  m_reasoning += delta.get_string("reasoning");          // Ollama, OpenRouter
  const Json* calls = delta.find("tool_calls");
  if (calls == nullptr || !calls->is_array()) return;
  for (const Json& piece : calls->as_array()) {
    const long long index = integer_at(piece, "index");
    PendingCall& call = m_calls[index];
    if (std::string id = piece.get_string("id"); !id.empty()) call.id = id;
    if (const Json* function = piece.find("function"); function && function->is_object()) {
      call.name += function->get_string("name");
      call.arguments += function->get_string("arguments");
    }
  }
}

DecodedTurn OpenAiStreamDecoder::build_turn() const {
  ModelTurn turn;
  turn.message.role = Role::assistant;
  turn.message.text = m_refusal.empty() ? m_text : m_text + m_refusal;
  if (!m_reasoning.empty()) turn.message.thinking.push_back(ThinkingBlock{m_reasoning, "", ""});
  turn.stop_reason = stop_reason_of(m_finish_reason, !m_calls.empty(), !m_refusal.empty());
  for (const auto& [index, call] : m_calls) {
    auto input = parse_tool_input(call.arguments);
    if (input) {
      std::string id = call.id.empty() ? "call_" + std::to_string(index) : call.id;
      turn.message.tool_calls.push_back(ToolCall{id, call.name, std::move(*input)});
    } else if (m_finish_reason == "length") {
      turn.truncated_call = call.name;  // cut off by the output limit: reported, never run half-parsed
    } else {
      return malformed_tool_input(call.name, input.error().message);
    }
  }
  if (turn.stop_reason == StopReason::tool_use && turn.message.tool_calls.empty())
    turn.stop_reason = StopReason::end_turn;
  turn.usage = m_usage;
  turn.usage.cost_usd.reset();  // priced by the client, which knows the model's price
  return turn;
}

DecodedTurn OpenAiStreamDecoder::finish() {
  // `data: [DONE]` ends a complete stream; a server that omits it must at least have finished the choice.
  if (!m_done && m_finish_reason.empty()) return incomplete_stream("data: [DONE]");
  return build_turn();
}

}  // namespace agent_run
