#include "model/wire_replay.h"

#include "base/text.h"
#include "model/model_exchange.h"

namespace agent_run {

namespace {

/// A recorded response, read back as the network gave it: its lines, then its end.
class ReplayedResponse final : public WireResponse {
 public:
  explicit ReplayedResponse(const WireTry& wire) : m_wire(wire) {}

  int status() const override { return m_wire.status; }
  std::string header(std::string_view name) const override {
    const std::string lower = to_lower(name);
    for (const HttpHeader& header : m_wire.response_headers) {
      if (to_lower(header.name) == lower) return header.value;
    }
    return "";
  }
  Expected<std::optional<std::string>> read_line() override {
    const std::string& body = m_wire.response_body;
    if (m_at >= body.size()) return ended(std::optional<std::string>());
    std::size_t end = body.find('\n', m_at);
    if (end == std::string::npos) end = body.size();
    std::string line = body.substr(m_at, end - m_at);
    m_at = end + 1;
    return std::optional<std::string>(std::move(line));
  }
  Expected<std::string> read_body(std::size_t max_bytes) override {
    std::string rest = m_at < m_wire.response_body.size() ? m_wire.response_body.substr(m_at, max_bytes) : "";
    m_at = m_wire.response_body.size();
    if (m_wire.end != HttpFailure::none) return ended(std::string());
    return rest;
  }
  HttpFailure last_failure() const override { return m_failure; }

 private:
  /// The recorded end of the body: its end, or the read that failed there.
  template <typename T>
  Expected<T> ended(T value) {
    if (m_wire.end == HttpFailure::none) return value;
    m_failure = m_wire.end;
    return make_error(m_wire.end_error);
  }

  const WireTry& m_wire;
  std::size_t m_at = 0;
  HttpFailure m_failure = HttpFailure::none;
};

}  // namespace

ReplayTransport::ReplayTransport(Recording recording, ReplayMode mode, std::string workspace,
                                 std::vector<std::string> secret_values)
    : m_recording(std::move(recording)), m_mode(mode), m_workspace(std::move(workspace)),
      m_secrets(std::move(secret_values)) {}

void ReplayTransport::next_exchange() {
  ++m_exchange;
  m_try = 0;
}

ApiFailure ReplayTransport::refusal(std::string message) const {
  ApiFailure failure;
  failure.error_type = "replay";
  failure.message = std::move(message);
  failure.retry = Retry::no;
  return failure;
}

std::optional<ApiFailure> ReplayTransport::compare(const HttpRequest& request, const WireTry& recorded) {
  const std::string sent = comparable_body(request.body, m_secrets, m_workspace);
  const std::string expected = comparable_body(recorded.request_body, {}, m_recording.workspace);
  const std::string diff = first_difference(expected, sent);
  if (diff.empty()) return std::nullopt;
  std::string problem = "replay: request " + std::to_string(m_exchange) + " differs from the recording (" +
                        m_recording.file.string() + "):\n" + diff;
  if (m_mode == ReplayMode::strict) return refusal(problem + "(--replay-loose plays it all the same)");
  m_warnings.push_back(problem);
  return std::nullopt;
}

WireOpening ReplayTransport::open(const HttpRequest& request, const HttpLimits&, HttpInterrupt*) {
  if (m_exchange == 0 || m_exchange > m_recording.exchanges.size()) {
    return refusal("replay: request " + std::to_string(m_exchange) + " was never recorded (" +
                   m_recording.file.string() + " has " + std::to_string(m_recording.exchanges.size()) + ")");
  }
  const RecordedExchange& exchange = m_recording.exchanges[m_exchange - 1];
  const std::size_t number = ++m_try;
  if (number > exchange.tries.size()) {
    return refusal("replay: request " + std::to_string(m_exchange) + " took " + std::to_string(exchange.tries.size()) +
                   (exchange.tries.size() == 1 ? " try" : " tries") + " when recorded; this replay asked for try " +
                   std::to_string(number));
  }
  const WireTry& recorded = exchange.tries[number - 1];
  if (number == 1) {
    if (auto refused = compare(request, recorded)) return *refused;
  }
  if (recorded.connect_error) return connection_failure(*recorded.connect_error);
  return std::unique_ptr<WireResponse>(std::make_unique<ReplayedResponse>(recorded));
}

ReplayedApiClient::ReplayedApiClient(std::unique_ptr<ModelClient> inner, std::shared_ptr<ReplayTransport> transport)
    : ForwardingClient(std::move(inner)), m_transport(std::move(transport)) {}

Expected<ModelTurn> ReplayedApiClient::complete(const Conversation& conversation,
                                                const std::vector<ToolSchema>& tools) {
  m_transport->next_exchange();
  return ForwardingClient::complete(conversation, tools);
}

}  // namespace agent_run
