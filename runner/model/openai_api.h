#pragma once

#include "base/json.h"
#include "model/provider_api.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace agent_run {

// OpenAI-compatible Chat Completions (POST {OPENAI_BASE_URL}/chat/completions, streamed): OpenAI,
// and vLLM, llama.cpp's server, Ollama, LM Studio or a gateway speaking the same format.

/// The request body: model, messages (system first; tool results as `tool` messages; images a
/// tool returned as a following user message of data URLs), tools, stream with usage.
Json openai_request_body(const Conversation& conversation, const std::vector<ToolSchema>& tools,
                         const RequestSettings& settings);

/// Reads `{"error":{"message","type","param","code"}}`.
ApiErrorBody parse_openai_error(std::string_view body);

/// Accumulates chat.completion.chunk events into a turn: content, refusal, reasoning text some
/// servers send, tool calls by `index` (arguments streamed in pieces), finish_reason, and the
/// usage-only chunk before `data: [DONE]`. An object with an `error` key fails the try.
class OpenAiStreamDecoder final : public StreamDecoder {
 public:
  DecodeStep feed(const SseEvent& event) override;
  DecodedTurn finish() override;
  std::string response_model() const override { return m_model; }
  bool usage_reported() const override { return m_usage_reported; }

 private:
  /// One tool call as its pieces arrive.
  struct PendingCall {
    std::string id;
    std::string name;
    std::string arguments;
  };

  void read_usage(const Json& usage);
  void read_delta(const Json& delta);
  DecodedTurn build_turn() const;

  std::map<long long, PendingCall> m_calls;
  std::string m_text;
  std::string m_refusal;
  std::string m_reasoning;
  std::string m_finish_reason;
  std::string m_model;
  Usage m_usage = Usage::zero();
  bool m_usage_reported = false;
  bool m_done = false;
};

/// Chat Completions as a ProviderApi: URL, headers (Authorization: Bearer when a key is set), codecs.
std::unique_ptr<ProviderApi> make_openai_api(ApiEndpoint endpoint, RequestSettings settings);

}  // namespace agent_run
