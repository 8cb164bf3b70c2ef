#pragma once

#include "base/json.h"
#include "model/provider_api.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace agent_run {

// The Anthropic Messages API (POST {ANTHROPIC_BASE_URL}/v1/messages, streamed).

/// The request body: model, max_tokens, thinking (when a budget is set), system, tools, messages,
/// stream. Thinking blocks of earlier turns go back signed and unchanged. Prompt caching puts a
/// breakpoint on the tools+system prefix and one on the latest turn's last block, so each call
/// re-reads everything before it from the cache.
Json anthropic_request_body(const Conversation& conversation, const std::vector<ToolSchema>& tools,
                            const RequestSettings& settings);

/// Reads `{"type":"error","error":{"type","message","details":{"error_code"}},"request_id"}`.
ApiErrorBody parse_anthropic_error(std::string_view body);

/// Accumulates message_start, content_block_start/delta/stop, message_delta and message_stop into
/// a turn: text, thinking (with signatures), tool calls (input JSON streamed in pieces), stop
/// reason and usage (message_delta's counts are cumulative: the last value of each wins).
/// `ping` and unknown event types are ignored; an `error` event fails the try.
class AnthropicStreamDecoder final : public StreamDecoder {
 public:
  DecodeStep feed(const SseEvent& event) override;
  DecodedTurn finish() override;
  std::string response_model() const override { return m_model; }
  bool usage_reported() const override { return m_usage_reported; }

 private:
  /// One content block as it streams in.
  struct Block {
    std::string type;  // text | thinking | redacted_thinking | tool_use | others (ignored)
    std::string text;
    std::string id;
    std::string name;
    std::string input_json;
    std::string signature;
    std::string data;
    Json start_input;  // content_block_start's `input` (`{}` when streamed)
  };

  void read_usage(const Json& usage);
  void start_block(const Json& data);
  void apply_delta(const Json& data);
  std::optional<ApiFailure> add_block(const Block& block, ModelTurn& turn) const;

  std::map<long long, Block> m_blocks;
  Usage m_usage = Usage::zero();
  bool m_usage_reported = false;
  bool m_stopped = false;
  std::string m_stop_reason;
  std::string m_model;
};

/// The Messages API as a ProviderApi: URL, headers (x-api-key, anthropic-version), codecs.
std::unique_ptr<ProviderApi> make_anthropic_api(ApiEndpoint endpoint, RequestSettings settings);

}  // namespace agent_run
