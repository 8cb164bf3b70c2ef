#include "net/web_url.h"

#include "base/text.h"

#include <algorithm>
#include <cctype>

namespace agent_run {

namespace {

Expected<int> read_port(std::string_view digits, std::string_view url) {
  if (digits.empty() || digits.size() > 5 || !std::all_of(digits.begin(), digits.end(), ::isdigit)) {
    return make_error("the URL '" + std::string(url) + "' has a bad port");
  }
  int port = std::stoi(std::string(digits));
  if (port < 1 || port > 65535) return make_error("the URL '" + std::string(url) + "' has a bad port");
  return port;
}

/// Splits `authority` into host and port; a bracketed IPv6 literal keeps its brackets.
Expected<WebUrl> read_authority(std::string_view authority, WebUrl target, std::string_view url) {
  const std::string shown(url);
  if (authority.find('@') != std::string_view::npos) {
    return make_error("the URL '" + shown + "' carries credentials (user@host), which are refused");
  }
  std::string_view host = authority;
  std::string_view port;
  if (!host.empty() && host[0] == '[') {
    std::size_t close = host.find(']');
    if (close == std::string_view::npos) return make_error("the URL '" + shown + "' has an unterminated IPv6 address");
    port = host.substr(close + 1);
    host = host.substr(0, close + 1);
    if (!port.empty() && port[0] != ':') return make_error("the URL '" + shown + "' has text after its IPv6 address");
    if (!port.empty()) port.remove_prefix(1);
    bool hex = std::all_of(host.begin() + 1, host.end() - 1,
                           [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) || c == ':' || c == '.'; });
    if (!hex || host.size() < 3) return make_error("the URL '" + shown + "' has an IPv6 address that is not plain hex");
  } else if (std::size_t colon = host.find(':'); colon != std::string_view::npos) {
    port = host.substr(colon + 1);
    host = host.substr(0, colon);
  }
  target.host = to_lower(host);
  if (target.host.size() > 1 && target.host.back() == '.' && target.host[0] != '[') target.host.pop_back();
  if (target.host.empty()) return make_error("the URL '" + shown + "' has no host");
  if (target.host[0] != '[' &&
      (target.host[0] == '.' || target.host.back() == '.' || target.host.find("..") != std::string::npos)) {
    // `a..b`, `.a` and `a..` name no host; `a..` would read as `a.` here and as `a` everywhere else
    return make_error("the URL '" + shown +
                      "' has a host with an empty label ('..' or a leading or second trailing dot)");
  }
  if (target.host[0] != '[' && !std::all_of(target.host.begin(), target.host.end(), is_host_char)) {
    return make_error("the URL '" + shown +
                      "' has a host with characters other than letters, digits, '-' and '.' "
                      "(write internationalised names as xn--...)");
  }
  if (!port.empty() || authority.back() == ':') {
    Expected<int> number = read_port(port, url);
    if (!number) return number.error();
    target.port = *number;
  }
  return target;
}

}  // namespace

bool is_host_char(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.'; }

Expected<WebUrl> parse_web_url(std::string_view url) {
  const std::string shown(url);
  for (char c : url) {
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7F || c == '\\' || static_cast<unsigned char>(c) >= 0x80) {
      return make_error("the URL '" + shown + "' has whitespace, a backslash, a control or a non-ASCII character");
    }
  }
  std::size_t colon = url.find("://");
  if (colon == std::string_view::npos) return make_error("'" + shown + "' is not an absolute http or https URL");
  WebUrl target;
  target.scheme = to_lower(url.substr(0, colon));
  if (target.scheme != "http" && target.scheme != "https") {
    return make_error("the URL '" + shown + "' has the scheme '" + target.scheme +
                      "'; only http and https are fetched");
  }
  target.port = target.scheme == "https" ? 443 : 80;
  std::string_view rest = url.substr(colon + 3);
  const std::size_t authority_end = std::min(rest.find_first_of("/?#"), rest.size());
  std::string_view authority = rest.substr(0, authority_end);
  if (authority.find('%') != std::string_view::npos) {
    return make_error("the URL '" + shown + "' has a percent-encoded host");
  }
  std::string_view request_target = rest.substr(authority_end);
  request_target = request_target.substr(0, request_target.find('#'));
  target.request_target = request_target.empty() || request_target[0] != '/' ? "/" + std::string(request_target)
                                                                             : std::string(request_target);
  return read_authority(authority, std::move(target), url);
}

}  // namespace agent_run
