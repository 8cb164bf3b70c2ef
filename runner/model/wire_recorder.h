#pragma once

#include "model/wire_transport.h"
#include "model/wire_try.h"

#include <memory>
#include <string>
#include <vector>

namespace agent_run {

/// A transport that passes each try on to another (the network) and keeps it as it went over the
/// wire (--record): the request as sent and the response's status, headers and body bytes as they
/// were read, up to where the client stopped reading or the read failed. A try is kept when its
/// response is let go, redacted at once; RecordingClient takes the tries of each call.
class WireRecorder final : public WireTransport {
 public:
  WireRecorder(std::shared_ptr<WireTransport> inner, std::vector<std::string> secret_values);

  WireOpening open(const HttpRequest& request, const HttpLimits& limits, HttpInterrupt* interrupt) override;
  bool reaches_network() const override { return m_inner->reaches_network(); }

  /// The tries made since the last take, in order.
  std::vector<WireTry> take_tries();

  /// Called by a recorded response when it is let go.
  void keep(WireTry wire);

 private:
  std::shared_ptr<WireTransport> m_inner;
  std::vector<std::string> m_secrets;
  std::vector<WireTry> m_tries;
};

}  // namespace agent_run
