#include "model/wire_recorder.h"

#include <utility>

namespace agent_run {

namespace {

/// A response read through to the client while its bytes are kept; handed to the recorder when
/// the client lets it go.
class RecordedResponse final : public WireResponse {
 public:
  RecordedResponse(std::unique_ptr<WireResponse> inner, WireTry wire, WireRecorder& recorder)
      : m_inner(std::move(inner)), m_wire(std::move(wire)), m_recorder(recorder) {
    m_wire.status = m_inner->status();
    for (const std::string& name : recorded_response_headers()) {
      if (std::string value = m_inner->header(name); !value.empty()) m_wire.response_headers.push_back({name, value});
    }
  }
  ~RecordedResponse() override { m_recorder.keep(std::move(m_wire)); }

  int status() const override { return m_inner->status(); }
  std::string header(std::string_view name) const override { return m_inner->header(name); }
  Expected<std::optional<std::string>> read_line() override {
    auto line = m_inner->read_line();
    if (!line) failed(line.error().message);
    else if (*line) m_wire.response_body += **line + "\n";
    return line;
  }
  Expected<std::string> read_body(std::size_t max_bytes) override {
    auto body = m_inner->read_body(max_bytes);
    if (!body) failed(body.error().message);
    else m_wire.response_body += *body;
    return body;
  }
  HttpFailure last_failure() const override { return m_inner->last_failure(); }

 private:
  void failed(std::string message) {
    m_wire.end = m_inner->last_failure() == HttpFailure::none ? HttpFailure::broken : m_inner->last_failure();
    m_wire.end_error = std::move(message);
  }

  std::unique_ptr<WireResponse> m_inner;
  WireTry m_wire;
  WireRecorder& m_recorder;
};

}  // namespace

WireRecorder::WireRecorder(std::shared_ptr<WireTransport> inner, std::vector<std::string> secret_values)
    : m_inner(std::move(inner)), m_secrets(std::move(secret_values)) {}

WireOpening WireRecorder::open(const HttpRequest& request, const HttpLimits& limits, HttpInterrupt* interrupt) {
  WireTry wire;
  wire.method = request.method;
  wire.url = request.url;
  wire.request_headers = request.headers;
  wire.request_body = request.body;
  WireOpening opened = m_inner->open(request, limits, interrupt);
  if (auto* failure = std::get_if<ApiFailure>(&opened)) {
    wire.connect_error = failure->message;
    keep(std::move(wire));
    return opened;
  }
  auto& response = std::get<std::unique_ptr<WireResponse>>(opened);
  return std::unique_ptr<WireResponse>(std::make_unique<RecordedResponse>(std::move(response), std::move(wire), *this));
}

std::vector<WireTry> WireRecorder::take_tries() { return std::exchange(m_tries, {}); }

void WireRecorder::keep(WireTry wire) { m_tries.push_back(redacted(std::move(wire), m_secrets)); }

}  // namespace agent_run
