#pragma once

#include "base/expected.h"
#include "net/address_check.h"
#include "net/address_resolver.h"

#include <string>
#include <vector>

namespace agent_run {

/// A URL web_fetch may connect to: its parts and every address its host resolved to, all checked.
struct WebTarget {
  std::string url;
  std::string scheme;  // http | https
  std::string host;    // lower-case, no trailing dot, IPv6 without brackets; for Host and TLS
  int port = 0;
  std::string request_target;        // path and query, never empty
  std::vector<IpAddress> addresses;  // connect only to these
};

/// Parses `url` with parse_web_url (the policy's parser: what it refuses is refused here) and
/// checks it before any connection: a host that is not a local or metadata name, resolved once (numeric spellings by
/// the C library's own rules, names by `resolver`), and every address it resolves to public. The error says why, for
/// the model.
Expected<WebTarget> check_web_target(const std::string& url, const HostResolver& resolver);

/// `location` (a redirect's Location header) resolved against `base`.
Expected<std::string> resolve_location(const std::string& base, const std::string& location);

}  // namespace agent_run
