#include "net/web_target.h"

#include "net/web_url.h"

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
Expected<void> check_addresses(const std::string& host, const std::vector<IpAddress>& addresses,
                               HostSpelling spelling) {
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
  auto parsed = parse_web_url(url);  // the parser the policy's web rules read, so both see one host
  if (!parsed) return parsed.error();
  WebTarget target;
  target.url = url;
  target.scheme = parsed->scheme;
  target.host = parsed->host;
  if (target.host.size() > 2 && target.host.front() == '[') target.host = target.host.substr(1, target.host.size() - 2);
  if (auto reason = refused_host_name(target.host)) return make_error("'" + target.host + "' is " + *reason);
  target.port = parsed->port;
  HostSpelling spelling = HostSpelling::name;
  auto addresses = addresses_of(target.host, resolver, spelling);
  if (!addresses) return addresses.error();
  if (auto checked = check_addresses(target.host, *addresses, spelling); !checked) return checked.error();
  target.addresses = std::move(*addresses);
  target.request_target = parsed->request_target;
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
