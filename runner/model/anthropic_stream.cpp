#include "model/anthropic_api.h"

#include "model/stream_support.h"

#include <algorithm>

namespace agent_run {

namespace {

StopReason stop_reason_of(const std::string& reason) {
  if (reason == "tool_use") return StopReason::tool_use;
  if (reason == "max_tokens") return StopReason::max_tokens;
  if (reason == "refusal") return StopReason::refusal;
  if (reason == "model_context_window_exceeded") return StopReason::context_window;
  return StopReason::end_turn;  // end_turn, stop_sequence, pause_turn, and values not yet known
}

}  // namespace

ApiErrorBody parse_anthropic_error(std::string_view body) {
  ApiErrorBody error;
  auto json = parse_json(body);
  if (!json) {
    error.message = error_text_of_body(body);
    return error;
  }
  error.request_id = json->get_string("request_id");
  const Json* inner = json->find("error");
  if (inner == nullptr || !inner->is_object()) {
    error.message = error_text_of_body(body);
    return error;
  }
  error.type = inner->get_string("type");
  error.message = inner->get_string("message");
  if (const Json* details = inner->find("details")) error.code = details->get_string("error_code");
  return error;
}

DecodeStep AnthropicStreamDecoder::feed(const SseEvent& event) {
  auto parsed = parse_event_data(event);
  if (auto* failure = std::get_if<ApiFailure>(&parsed)) return failed_step(std::move(*failure));
  const Json& data = std::get<Json>(parsed);
  const std::string type = data.get_string("type", event.event);
  if (type == "message_start") {
    if (const Json* message = data.find("message")) {
      m_model = message->get_string("model");
      if (const Json* usage = message->find("usage")) read_usage(*usage);
    }
  } else if (type == "content_block_start") {
    start_block(data);
  } else if (type == "content_block_delta") {
    apply_delta(data);
  } else if (type == "message_delta") {
    if (const Json* delta = data.find("delta")) {
      if (const Json* reason = delta->find("stop_reason"); reason && reason->is_string())
        m_stop_reason = reason->as_string();
    }
    if (const Json* usage = data.find("usage")) read_usage(*usage);
  } else if (type == "message_stop") {
    m_stopped = true;
    return DecodeStep{DecodeStep::Kind::done, {}};
  } else if (type == "error") {
    return failed_step(failure_of_error_event(data));
  }
  return DecodeStep{};  // ping, content_block_stop, and event types this build does not know
}

void AnthropicStreamDecoder::read_usage(const Json& usage) {
  if (!usage.is_object()) return;
  m_usage_reported = true;
  auto take = [&](const char* name, std::int64_t& field) {
    if (const Json* value = usage.find(name); value && value->is_number()) field = value->as_int();
  };
  take("input_tokens", m_usage.input_tokens);
  take("output_tokens", m_usage.output_tokens);
  take("cache_read_input_tokens", m_usage.cache_read_input_tokens);
  take("cache_creation_input_tokens", m_usage.cache_creation_input_tokens);
  if (const Json* details = usage.find("output_tokens_details")) {
    if (const Json* value = details->find("reasoning_tokens"); value && value->is_number()) {
      m_usage.reasoning_tokens = value->as_int();
    }
  }
}

void AnthropicStreamDecoder::start_block(const Json& data) {
  const Json* index = data.find("index");
  const Json* content = data.find("content_block");
  if (index == nullptr || !index->is_number() || content == nullptr) return;
  Block block;
  block.type = content->get_string("type");
  block.text = content->get_string(block.type == "thinking" ? "thinking" : "text");
  block.id = content->get_string("id");
  block.name = content->get_string("name");
  block.signature = content->get_string("signature");
  block.data = content->get_string("data");
  if (const Json* input = content->find("input")) block.start_input = *input;
  m_blocks[index->as_int()] = std::move(block);
}

void AnthropicStreamDecoder::apply_delta(const Json& data) {
  const Json* index = data.find("index");
  const Json* delta = data.find("delta");
  if (index == nullptr || !index->is_number() || delta == nullptr) return;
  auto found = m_blocks.find(index->as_int());
  if (found == m_blocks.end()) return;
  Block& block = found->second;
  const std::string type = delta->get_string("type");
  if (type == "text_delta") block.text += delta->get_string("text");
  else if (type == "input_json_delta") block.input_json += delta->get_string("partial_json");
  else if (type == "thinking_delta") block.text += delta->get_string("thinking");
  else if (type == "signature_delta") block.signature += delta->get_string("signature");
  // citations_delta and delta types not yet known add nothing the runner uses
}

std::optional<ApiFailure> AnthropicStreamDecoder::add_block(const Block& block, ModelTurn& turn) const {
  if (block.type == "text") {
    turn.message.text += block.text;  // citations split one text into several blocks
  } else if (block.type == "thinking") {
    turn.message.thinking.push_back(ThinkingBlock{block.text, block.signature, ""});
  } else if (block.type == "redacted_thinking") {
    turn.message.thinking.push_back(ThinkingBlock{"", "", block.data});
  } else if (block.type == "tool_use") {
    bool nothing_streamed = block.input_json.empty() && block.start_input.is_object();
    auto input = nothing_streamed ? Expected<Json>(block.start_input) : parse_tool_input(block.input_json);
    if (input) {
      turn.message.tool_calls.push_back(ToolCall{block.id, block.name, std::move(*input)});
    } else if (turn.stop_reason == StopReason::max_tokens) {
      turn.truncated_call = block.name;  // cut off by the output limit: reported, never run half-parsed
    } else {
      return malformed_tool_input(block.name, input.error().message);
    }
  }
  return std::nullopt;
}

DecodedTurn AnthropicStreamDecoder::finish() {
  if (!m_stopped) return incomplete_stream("message_stop");
  ModelTurn turn;
  turn.message.role = Role::assistant;
  turn.stop_reason = stop_reason_of(m_stop_reason);
  for (const auto& [index, block] : m_blocks) {
    if (auto failure = add_block(block, turn)) return *failure;
  }
  turn.usage = m_usage;
  turn.usage.cost_usd.reset();  // priced by the client, which knows the model's price
  if (turn.usage.reasoning_tokens == 0) {
    // output_tokens includes thinking without saying how much: about four bytes of thinking a token.
    std::size_t thinking_bytes = 0;
    for (const ThinkingBlock& block : turn.message.thinking) thinking_bytes += block.thinking.size();
    turn.usage.reasoning_tokens =
        std::min<std::int64_t>(static_cast<std::int64_t>((thinking_bytes + 3) / 4), turn.usage.output_tokens);
  }
  return turn;
}

}  // namespace agent_run
