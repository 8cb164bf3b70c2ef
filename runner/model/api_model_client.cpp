#include "model/api_model_client.h"

#include "base/cancellation.h"
#include "model/stream_support.h"
#include "net/interrupt_on_cancel.h"
#include "net/sse_parser.h"

#include <cstdio>

namespace agent_run {

namespace {

constexpr std::size_t k_max_error_body = 64 * 1024;

std::string seconds_text(std::chrono::milliseconds duration) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1fs", static_cast<double>(duration.count()) / 1000.0);
  return buffer;
}

ApiFailure transport_failure(std::string error_type, std::string message, int status) {
  ApiFailure failure;
  failure.status = status;
  failure.error_type = std::move(error_type);
  failure.message = std::move(message);
  failure.retry = Retry::yes;
  return failure;
}

const char* label_of(HttpFailure failure) {
  switch (failure) {
    case HttpFailure::timeout: return "timeout";
    case HttpFailure::deadline: return "time_limit";
    default: return "connection";
  }
}

/// The turn for a request the API refused because the prompt outgrew the context window.
ModelTurn context_window_turn() {
  ModelTurn turn;
  turn.message.role = Role::assistant;
  turn.stop_reason = StopReason::context_window;
  turn.usage = Usage::zero();  // a refused request is not billed
  return turn;
}

}  // namespace

ApiModelClient::ApiModelClient(std::string model_name, std::unique_ptr<ProviderApi> api,
                               std::optional<ModelPrice> price, ApiClientSettings settings, const Clock& clock,
                               SleepFunction sleep, std::string api_key, std::shared_ptr<WireTransport> transport)
    : m_model_name(std::move(model_name)), m_api(std::move(api)), m_price(price), m_settings(settings), m_clock(clock),
      m_sleep(std::move(sleep)), m_api_key(std::move(api_key)), m_transport(std::move(transport)) {}

Expected<ModelTurn> ApiModelClient::complete(const Conversation& conversation, const std::vector<ToolSchema>& tools) {
  m_last = ModelCallRecord{};
  const HttpRequest request = m_api->build_request(conversation, tools);
  const Clock::SteadyTime call_started = m_clock.now();
  for (int try_number = 1;; ++try_number) {
    const Clock::SteadyTime try_started = m_clock.now();
    DecodedTurn outcome = remaining().count() > 0
                              ? try_once(request)
                              : DecodedTurn(transport_failure("time_limit", "no time was left for a try", 0));
    if (auto* turn = std::get_if<ModelTurn>(&outcome)) return std::move(*turn);
    ApiFailure& failure = std::get<ApiFailure>(outcome);
    if (failure.context_window) {
      m_last.request_id = failure.request_id;
      return context_window_turn();
    }
    if (auto error = record_failure(std::move(failure), try_number, try_started, call_started)) return *error;
  }
}

std::optional<Error> ApiModelClient::record_failure(ApiFailure failure, int try_number, Clock::SteadyTime try_started,
                                                    Clock::SteadyTime call_started) {
  failure.message = redact(failure.message);
  if (cancelled()) failure.error_type = "interrupted";
  m_last.failed_tries.push_back(ModelTryRecord{try_number, failure.status, failure.error_type, failure.message,
                                               failure.request_id, 0, elapsed_ms(try_started, m_clock.now())});
  const std::string what = describe(failure);
  if (cancelled()) return make_error(m_model_name + ": the call was cut short by the run's stop request");
  if (remaining().count() <= 0) {
    return make_error(m_model_name +
                      ": the attempt's time limit was reached during the model call; the last try: " + what);
  }
  if (failure.retry == Retry::no) return make_error(m_model_name + ": " + what);
  if (try_number > m_settings.max_retries) {
    auto spent = std::chrono::milliseconds(elapsed_ms(call_started, m_clock.now()));
    return make_error(m_model_name + ": gave up after " + std::to_string(try_number) +
                      (try_number == 1 ? " try" : " tries") + " over " + seconds_text(spent) + "; the last: " + what);
  }
  const auto wait = backoff_wait(try_number - 1, failure.retry_after, m_api->retry_after_cap(),
                                 std::uniform_real_distribution<double>(0.0, 1.0)(m_random));
  if (wait >= remaining()) {
    return make_error(m_model_name + ": the attempt's time limit leaves no time to wait " + seconds_text(wait) +
                      " before trying again; the last try: " + what);
  }
  m_last.failed_tries.back().wait_ms = wait.count();
  m_sleep(wait);
  return std::nullopt;
}

bool ApiModelClient::cancelled() const { return m_settings.cancellation && m_settings.cancellation->cancelled(); }

DecodedTurn ApiModelClient::try_once(const HttpRequest& request) {
  const HttpLimits limits{m_settings.connect_timeout, m_settings.idle_timeout, remaining()};
  HttpInterrupt interrupt;  // declared before the stream, which refers to it
  InterruptOnCancel cut_on_cancel(m_settings.cancellation, interrupt);
  WireOpening opened = m_transport->open(request, limits, &interrupt);
  if (auto* failure = std::get_if<ApiFailure>(&opened)) return std::move(*failure);
  WireResponse* stream = std::get<std::unique_ptr<WireResponse>>(opened).get();
  const std::string request_id = stream->header(m_api->request_id_header());
  if (stream->status() < 200 || stream->status() >= 300) return read_error_response(*stream, request_id);
  const std::string content_type = stream->header("Content-Type");
  if (content_type.find("text/event-stream") == std::string::npos) {
    // A model call has no side effect: a 200 that is not the stream (a proxy's page, a cut body) is a
    // transient fault like a 5xx, tried again within the same retry budget and recorded as a failed try.
    ApiFailure failure =
        transport_failure("stream.not_sse",
                          "the server answered " + std::to_string(stream->status()) + " with Content-Type '" +
                              content_type + "', not a text/event-stream; does it support \"stream\": true?",
                          stream->status());
    failure.request_id = request_id;
    return failure;
  }
  return read_stream(*stream, request_id);
}

ApiFailure ApiModelClient::read_error_response(WireResponse& stream, const std::string& request_id) {
  auto body = stream.read_body(k_max_error_body);
  ResponseHead head{stream.status(), request_id, stream.header("x-should-retry"), stream.header("retry-after-ms"),
                    stream.header("retry-after")};
  ApiErrorBody error = m_api->parse_error_body(body ? *body : std::string());
  if (error.message.empty()) error.message = error_text_of_body(body ? *body : std::string());
  return classify_error_response(head, error, m_clock.wall_now());
}

DecodedTurn ApiModelClient::read_stream(WireResponse& stream, const std::string& request_id) {
  auto decoder = m_api->make_decoder();
  SseParser parser;
  auto failed = [&](ApiFailure failure) {
    failure.request_id = request_id;
    return DecodedTurn(std::move(failure));
  };
  for (;;) {
    auto line = stream.read_line();
    if (!line) return failed(transport_failure(label_of(stream.last_failure()), line.error().message, 200));
    if (!*line) break;
    auto event = parser.feed_line(**line);
    if (!event) continue;
    DecodeStep step = decoder->feed(*event);
    if (step.kind == DecodeStep::Kind::failed) return failed(std::move(step.failure));
    if (step.kind == DecodeStep::Kind::done) break;
  }
  DecodedTurn outcome = decoder->finish();
  if (auto* failure = std::get_if<ApiFailure>(&outcome)) return failed(std::move(*failure));
  ModelTurn& turn = std::get<ModelTurn>(outcome);
  m_last.request_id = request_id;
  m_last.response_model = decoder->response_model();
  if (m_price && decoder->usage_reported()) turn.usage.cost_usd = cost_usd(*m_price, turn.usage);
  return outcome;
}

std::chrono::milliseconds ApiModelClient::remaining() const {
  if (!m_deadline) return std::chrono::hours(24);
  return std::chrono::duration_cast<std::chrono::milliseconds>(*m_deadline - m_clock.now());
}

std::string ApiModelClient::describe(const ApiFailure& failure) const {
  if (failure.error_type == "replay") return failure.message;  // the recording could not answer: it says why
  std::string text = failure.status != 0 && failure.status != 200
                         ? "HTTP " + std::to_string(failure.status) + " " + failure.error_type
                         : failure.error_type;
  text += ": " + failure.message;
  if (!failure.request_id.empty()) text += " (request id " + failure.request_id + ")";
  if (failure.billing) return text + "; the account's credit, quota or spend limit stops it, so no retry was made";
  switch (failure.status) {
    case 401: return text + "; check " + m_api->key_variable();
    case 403: return text + "; the key in " + m_api->key_variable() + " may not have access to this model";
    case 404:
      return text + "; check the model name and " + m_api->url_variable() + " (calling " + m_api->endpoint_url() + ")";
    case 0:
      return text + "; check " + m_api->url_variable() + " (calling " + m_api->endpoint_url() + ") and the network";
    default: return text;
  }
}

std::string ApiModelClient::redact(std::string text) const {
  if (m_api_key.empty()) return text;
  for (std::size_t at = text.find(m_api_key); at != std::string::npos; at = text.find(m_api_key, at)) {
    text.replace(at, m_api_key.size(), "[redacted]");
  }
  // Servers echo a masked key ("sk-abc1****wxyz"): drop any word that looks like one.
  const std::string head = m_api_key.substr(0, std::min<std::size_t>(6, m_api_key.size()));
  std::string out;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find_first_of(" \t\n\"'`,;", start);
    if (end == std::string::npos) end = text.size();
    std::string word = text.substr(start, end - start);
    bool masked_key = word.find("**") != std::string::npos || (head.size() >= 6 && word.rfind(head, 0) == 0);
    out += masked_key ? "[redacted]" : word;
    if (end < text.size()) out += text[end];
    start = end + 1;
  }
  return out;
}

}  // namespace agent_run
