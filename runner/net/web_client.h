#pragma once

#include "base/expected.h"
#include "net/address_check.h"
#include "net/address_resolver.h"

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace agent_run {

/// Where a connection goes.
struct WebEndpoint {
  IpAddress address;
  int port = 0;
};

/// Caps on one fetch, redirects included.
struct WebFetchLimits {
  std::size_t max_body_bytes = 2 * 1024 * 1024;  // the rest is not read
  int max_redirects = 5;
  std::chrono::milliseconds timeout{30000};          // the whole fetch
  std::chrono::milliseconds connect_timeout{10000};  // one connection
};

/// How fetches reach the network.
struct WebFetchOptions {
  const HostResolver* resolver = nullptr;  // nullptr: the system's
  WebFetchLimits limits;
  /// Test only: where a connection to an endpoint that passed every check really goes (a loopback
  /// server standing in for a public host). Applied after the checks, never instead of them.
  std::function<WebEndpoint(const WebEndpoint&)> route_for_test;
  /// Asked for every URL of a fetch, the first and each redirect's, before the address checks: an
  /// error refuses that hop with its message (the policy's web rules, policy/scope_context). Unset: every hop may go on.
  std::function<Expected<void>(const std::string& url)> approve_hop;
};

/// A fetched page.
struct WebPage {
  std::string url;  // after redirects
  int status = 0;
  std::string reason;
  std::string content_type;
  std::string body;  // at most max_body_bytes, as sent (no content encoding is asked for)
  bool truncated = false;
  std::vector<std::string> redirects;  // the URLs that redirected, in order
};

/// GETs `url`. Each hop, the first and every redirect, is approved by `approve_hop` (when set) and
/// checked by check_web_target before any
/// connection, and the connection goes to one of the addresses that were checked, never to a name
/// resolved again. No proxy from the environment is used. Fails, with a sentence for the model, when
/// a hop is refused, the server cannot be reached, or a cap is hit (except the body cap, which
/// truncates).
Expected<WebPage> fetch_web_page(const std::string& url, const WebFetchOptions& options);

}  // namespace agent_run
