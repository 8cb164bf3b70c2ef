#pragma once

#include "base/clock.h"
#include "model/model_client.h"
#include "model/price_table.h"
#include "model/provider_api.h"
#include "model/wire_transport.h"

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>

namespace agent_run {

class Cancellation;

/// How hard the client tries: retries after the first try, and each try's network limits.
struct ApiClientSettings {
  int max_retries = 6;
  std::chrono::milliseconds connect_timeout = std::chrono::seconds(10);
  std::chrono::milliseconds idle_timeout = std::chrono::seconds(90);  // no byte at all, keep-alives included
  const Cancellation* cancellation = nullptr;  // the run's stop request: cuts a call in flight, no retry after it
  std::optional<std::int64_t> context_window;  // tokens; overrides the price table's
};

/// Waits between tries: a real sleep in the binary; advancing a fake clock in tests.
using SleepFunction = std::function<void(std::chrono::milliseconds)>;

/// A model behind a real API, streamed. Each call sends the conversation through the provider's
/// codec, reads the event stream into a turn, and on a transient failure (408, 409, 429, 5xx,
/// 529, a dropped or silent connection, an `error` event, a malformed chunk) discards the partial
/// turn and retries the whole request with the SDKs' backoff, within the deadline. The usage is
/// priced; every failed try is recorded. Failures come back as messages a person can act on,
/// with the API key removed from anything a server echoed. When the run's cancellation fires, the
/// exchange in flight is cut at once and the call fails without another try. Each try goes through
/// `transport`: the network, or a recording (--replay) that answers with the bytes once streamed.
class ApiModelClient final : public ModelClient {
 public:
  ApiModelClient(std::string model_name, std::unique_ptr<ProviderApi> api, std::optional<ModelPrice> price,
                 ApiClientSettings settings, const Clock& clock, SleepFunction sleep, std::string api_key,
                 std::shared_ptr<WireTransport> transport = network_transport());

  std::string model_name() const override { return m_model_name; }
  Expected<ModelTurn> complete(const Conversation& conversation, const std::vector<ToolSchema>& tools) override;
  void set_deadline(Clock::SteadyTime deadline) override { m_deadline = deadline; }
  ModelCallRecord last_call() const override { return m_last; }
  std::optional<std::int64_t> context_window() const override {
    if (m_settings.context_window) return m_settings.context_window;
    return m_price ? m_price->context_window : std::nullopt;
  }

 private:
  DecodedTurn try_once(const HttpRequest& request);
  DecodedTurn read_stream(WireResponse& stream, const std::string& request_id);
  ApiFailure read_error_response(WireResponse& stream, const std::string& request_id);
  std::optional<Error> record_failure(ApiFailure failure, int try_number, Clock::SteadyTime try_started,
                                      Clock::SteadyTime call_started);
  ModelTurn priced(ModelTurn turn, const StreamDecoder* decoder) const;
  std::chrono::milliseconds remaining() const;
  bool cancelled() const;
  std::string describe(const ApiFailure& failure) const;
  std::string redact(std::string text) const;

  std::string m_model_name;
  std::unique_ptr<ProviderApi> m_api;
  std::optional<ModelPrice> m_price;
  ApiClientSettings m_settings;
  const Clock& m_clock;
  SleepFunction m_sleep;
  std::string m_api_key;
  std::shared_ptr<WireTransport> m_transport;
  std::optional<Clock::SteadyTime> m_deadline;
  ModelCallRecord m_last;
  std::mt19937 m_random{std::random_device{}()};
};

}  // namespace agent_run
