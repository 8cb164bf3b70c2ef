#pragma once

#include "model/retry_policy.h"
#include "net/http_client.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace agent_run {

/// One model API response being read: its status and headers, then its body line by line. The
/// network's (an HttpStream) or a recording's; the retrying client and the decoders cannot tell.
class WireResponse {
 public:
  virtual ~WireResponse() = default;
  virtual int status() const = 0;
  /// The response header `name` (case-insensitive), or "" when absent.
  virtual std::string header(std::string_view name) const = 0;
  /// The next body line without its '\n'; nullopt at the end of the body.
  virtual Expected<std::optional<std::string>> read_line() = 0;
  /// The rest of the body, at most `max_bytes` of it.
  virtual Expected<std::string> read_body(std::size_t max_bytes) = 0;
  /// What made the last read fail (`none` after a successful read).
  virtual HttpFailure last_failure() const = 0;
};

/// A response, or the failed try that stands for it (no connection; a replay that cannot answer).
using WireOpening = std::variant<std::unique_ptr<WireResponse>, ApiFailure>;

/// Sends one try of a model call and opens its response: the network in a live run, a recording in
/// a replay, a recorder in between with --record. The one seam below ApiModelClient, so that a
/// replay runs the same request builders, retry policy and stream decoders as a live run.
class WireTransport {
 public:
  virtual ~WireTransport() = default;
  virtual WireOpening open(const HttpRequest& request, const HttpLimits& limits, HttpInterrupt* interrupt) = 0;
  /// False for a recording played back: then no API key is needed and no retry waits.
  virtual bool reaches_network() const { return true; }
};

/// The network: HttpStream over Poco, plain or TLS; a failure to connect is a retried `connection` try.
std::shared_ptr<WireTransport> network_transport();

/// The failed try of a call whose request never got an answer (retried).
ApiFailure connection_failure(std::string message);

}  // namespace agent_run
