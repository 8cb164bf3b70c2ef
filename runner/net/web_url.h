#pragma once

#include "base/expected.h"

#include <string>
#include <string_view>

namespace agent_run {

/// An absolute http or https URL, read the one way both the policy's web rules and web_fetch read
/// it, so a rule and the fetch can never disagree about where a URL leads.
struct WebUrl {
  std::string scheme;          // http | https, lower-case
  std::string host;            // lower-case, a trailing dot removed; IPv6 literals in brackets
  int port = 0;                // explicit, or the scheme's default
  std::string request_target;  // the path and query as written (never empty: "/"); the fragment dropped
};

/// Reads an absolute http or https URL. URLs a parser could read two ways are errors: credentials
/// (`user@`), backslashes, percent-encoded or non-ASCII hosts, whitespace and control characters,
/// bad ports.
Expected<WebUrl> parse_web_url(std::string_view url);

/// True for a character a host name may hold as written here: a lower-case letter, a digit, '-' or '.'.
bool is_host_char(char c);

}  // namespace agent_run
