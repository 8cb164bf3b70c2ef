#pragma once

#include "base/expected.h"

#include <optional>
#include <string>
#include <string_view>

namespace agent_run {

/// Where a web_fetch call would connect, as rules compare it: lower-case scheme and host (a
/// trailing dot removed, IPv6 literals in brackets) and the port, explicit or the scheme's default.
struct ParsedUrl {
  std::string scheme;
  std::string host;
  int port = 0;
};

/// Reads the scheme, host and port of an absolute http or https URL. URLs a parser could read two
/// ways are errors: credentials (`user@`), backslashes, percent-encoded or non-ASCII hosts,
/// whitespace and control characters, bad ports.
Expected<ParsedUrl> parse_web_target(std::string_view url);

/// What is wrong with a `hosts` entry: an exact lower-case host, `*.` and a domain (any host
/// strictly under it), or `*` (any host); nullopt when it is fine.
std::optional<std::string> host_pattern_problem(std::string_view pattern);

/// True when `host` (as parse_web_target gives it) matches `pattern`.
bool host_pattern_matches(std::string_view pattern, std::string_view host);

}  // namespace agent_run
