#include "policy/host_pattern.h"

#include "net/web_url.h"

#include <algorithm>

namespace agent_run {

std::optional<std::string> host_pattern_problem(std::string_view pattern) {
  if (pattern == "*") return std::nullopt;
  std::string_view domain = pattern.substr(0, 2) == "*." ? pattern.substr(2) : pattern;
  if (domain.empty()) return "a host pattern must name a host";
  if (domain[0] == '[' && domain.back() == ']') return std::nullopt;
  if (!std::all_of(domain.begin(), domain.end(), is_host_char)) {
    return "'" + std::string(pattern) +
           "' is not a lower-case host name (letters, digits, '-' and '.'; "
           "'*.' only at the start; internationalised names as xn--...)";
  }
  if (domain.front() == '.' || domain.back() == '.' || domain.find("..") != std::string_view::npos) {
    return "'" + std::string(pattern) + "' has an empty label";
  }
  return std::nullopt;
}

bool host_pattern_matches(std::string_view pattern, std::string_view host) {
  if (pattern == "*") return true;
  if (pattern.substr(0, 2) == "*.") {
    std::string_view suffix = pattern.substr(1);  // ".example.com": a dot boundary, never the domain itself
    return host.size() > suffix.size() && host.substr(host.size() - suffix.size()) == suffix;
  }
  return host == pattern;
}

}  // namespace agent_run
