#pragma once

#include "model/conversation.h"
#include "model/retry_policy.h"
#include "net/http_client.h"
#include "net/sse_parser.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace agent_run {

/// Where a provider's API is and the key for it, as app/ read them from the environment.
struct ApiEndpoint {
  std::string base_url;  // e.g. https://api.anthropic.com, https://api.openai.com/v1
  std::string api_key;   // may be empty for a local server that needs none
};

/// The request parameters a run sets for every call.
struct RequestSettings {
  std::string model;                     // the provider's name for it, without `provider/`
  std::optional<int> max_output_tokens;  // nullopt: the provider's default (Anthropic needs one: 8192)
  std::optional<double> temperature;     // nullopt: the provider's default
  std::optional<int> thinking_budget;  // Anthropic: `thinking: {type: enabled, budget_tokens}`; below max_output_tokens
  std::optional<std::string> reasoning_effort;  // OpenAI: `reasoning_effort` (minimal | low | medium | high)
};

/// What feeding one stream event to a decoder led to.
struct DecodeStep {
  enum class Kind { more, done, failed };
  Kind kind = Kind::more;
  ApiFailure failure;  // when failed: an `error` event or a payload that is not valid JSON
};

/// A turn, or why the stream did not make one.
using DecodedTurn = std::variant<ModelTurn, ApiFailure>;

/// Accumulates one streamed response (server-sent events) into a ModelTurn. One per try.
class StreamDecoder {
 public:
  virtual ~StreamDecoder() = default;
  /// Takes the next event; `done` after the provider's final event.
  virtual DecodeStep feed(const SseEvent& event) = 0;
  /// The turn, after `done` or at the end of the body; a failure when the stream was cut short
  /// or a finished tool call's input is not valid JSON.
  virtual DecodedTurn finish() = 0;
  /// The model the API says answered.
  virtual std::string response_model() const = 0;
  /// False when the stream carried no usage at all (then tokens and cost are unknown).
  virtual bool usage_reported() const = 0;
};

/// One provider's wire format: how to ask, how to read the stream, how to read an error. The
/// codecs are pure; the retrying client does the I/O.
class ProviderApi {
 public:
  virtual ~ProviderApi() = default;
  virtual HttpRequest build_request(const Conversation& conversation, const std::vector<ToolSchema>& tools) const = 0;
  virtual std::unique_ptr<StreamDecoder> make_decoder() const = 0;
  virtual ApiErrorBody parse_error_body(std::string_view body) const = 0;
  /// The response header holding the request id (`request-id`, `x-request-id`).
  virtual std::string request_id_header() const = 0;
  /// The longest server-requested wait honoured (60 s Anthropic, 120 s OpenAI).
  virtual std::chrono::milliseconds retry_after_cap() const = 0;
  /// The environment variables behind the endpoint, named in messages (never their values).
  virtual std::string key_variable() const = 0;
  virtual std::string url_variable() const = 0;
  /// The full URL called, without credentials, for messages.
  virtual std::string endpoint_url() const = 0;
};

}  // namespace agent_run
