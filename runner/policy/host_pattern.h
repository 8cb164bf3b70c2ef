#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace agent_run {

/// What is wrong with a `hosts` entry: an exact lower-case host, `*.` and a domain (any host
/// strictly under it), or `*` (any host); nullopt when it is fine.
std::optional<std::string> host_pattern_problem(std::string_view pattern);

/// True when `host` (as parse_web_url gives it) matches `pattern`.
bool host_pattern_matches(std::string_view pattern, std::string_view host);

}  // namespace agent_run
