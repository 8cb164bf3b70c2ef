#include "net/web_target.h"

#include "base/text.h"

#include <Poco/Exception.h>
#include <Poco/URI.h>

#include <algorithm>
#include <cctype>

namespace agent_run {

namespace {

/// How the host was written in the URL.
enum class HostSpelling { address, name };

/// The host's addresses: the one it spells, or what the resolver says.
Expected<std::vector<IpAddress>> addresses_of(const std::string& host, const HostResolver& resolver,
                                              HostSpelling& spelling) {
  auto numeric = parse_numeric_host(host);
  if (!numeric) return numeric.error();
  spelling = *numeric ? HostSpelling::address : HostSpelling::name;
  if (*numeric) return std::vector<IpAddress>{**numeric};
  return resolver.resolve(host);
}

/// An error unless every address is public.
Expected<void> check_addresses(const std::string& host, const std::vector<IpAddress>& addresses, HostSpelling spelling) {
  for (const IpAddress& address : addresses) {
    auto reason = refused_address(address);
    if (!reason) continue;
    std::string what = "'" + host + "' ";
    if (spelling == HostSpelling::name) {
      what += "resolves to " + address.to_string() + (addresses.size() > 1 ? " (among others), " : ", ");
    } else {
      what += address.to_string() == host ? "is " : "is " + address.to_string() + ", ";
    }
    return make_error(what + *reason + "; web_fetch connects only to public addresses");
  }
  return {};
}

}  // namespace

Expected<WebTarget> check_web_target(const std::string& url, const HostResolver& resolver) {
  Poco::URI uri;
  try {
    uri = Poco::URI(url);
  } catch (const Poco::Exception& e) {
    return make_error("'" + url + "' is not a valid URL: " + e.displayText());
  }
  WebTarget target;
  target.url = url;
  target.scheme = to_lower(uri.getScheme());
  if (target.scheme != "http" && target.scheme != "https") {
    return make_error("only http and https URLs can be fetched, not '" + (target.scheme.empty() ? url : target.scheme + ":") + "'");
  }
  if (!uri.getUserInfo().empty()) return make_error("URLs with credentials (user@host) are refused");
  target.host = uri.getHost();
  if (!target.host.empty() && target.host.back() == '.') target.host.pop_back();
  if (target.host.empty()) return make_error("'" + url + "' has no host");
  if (auto reason = refused_host_name(target.host)) return make_error("'" + target.host + "' is " + *reason);
  target.port = uri.getPort();
  if (target.port <= 0) return make_error("'" + url + "' has no valid port");
  HostSpelling spelling = HostSpelling::name;
  auto addresses = addresses_of(target.host, resolver, spelling);
  if (!addresses) return addresses.error();
  if (auto checked = check_addresses(target.host, *addresses, spelling); !checked) return checked.error();
  target.addresses = std::move(*addresses);
  target.request_target = uri.getPathAndQuery();
  if (target.request_target.empty()) target.request_target = "/";
  return target;
}

Expected<std::string> resolve_location(const std::string& base, const std::string& location) {
  try {
    Poco::URI resolved(base);
    resolved.resolve(location);
    return resolved.toString();
  } catch (const Poco::Exception& e) {
    return make_error("the redirect to '" + location + "' is not a valid URL: " + e.displayText());
  }
}

}  // namespace agent_run
