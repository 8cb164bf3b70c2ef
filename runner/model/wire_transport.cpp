#include "model/wire_transport.h"

namespace agent_run {

namespace {

/// An HttpStream seen through WireResponse.
class NetworkResponse final : public WireResponse {
 public:
  explicit NetworkResponse(HttpStream stream) : m_stream(std::move(stream)) {}
  int status() const override { return m_stream.status(); }
  std::string header(std::string_view name) const override { return m_stream.header(name); }
  Expected<std::optional<std::string>> read_line() override { return m_stream.read_line(); }
  Expected<std::string> read_body(std::size_t max_bytes) override { return m_stream.read_body(max_bytes); }
  HttpFailure last_failure() const override { return m_stream.last_failure(); }

 private:
  HttpStream m_stream;
};

class NetworkTransport final : public WireTransport {
 public:
  WireOpening open(const HttpRequest& request, const HttpLimits& limits, HttpInterrupt* interrupt) override {
    auto stream = HttpStream::open(request, limits, interrupt);
    if (!stream) return connection_failure(stream.error().message);
    return std::unique_ptr<WireResponse>(std::make_unique<NetworkResponse>(std::move(*stream)));
  }
};

}  // namespace

std::shared_ptr<WireTransport> network_transport() { return std::make_shared<NetworkTransport>(); }

ApiFailure connection_failure(std::string message) {
  ApiFailure failure;
  failure.error_type = "connection";
  failure.message = std::move(message);
  failure.retry = Retry::yes;
  return failure;
}

}  // namespace agent_run
