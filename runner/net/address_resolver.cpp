#include "net/address_resolver.h"

#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <cstring>

namespace agent_run {

namespace {

IpAddress from_sockaddr(const sockaddr* address) {
  IpAddress ip;
  if (address->sa_family == AF_INET) {
    const auto* v4 = reinterpret_cast<const sockaddr_in*>(address);
    std::memcpy(ip.bytes.data(), &v4->sin_addr, 4);
  } else {
    const auto* v6 = reinterpret_cast<const sockaddr_in6*>(address);
    ip.family = IpAddress::Family::v6;
    std::memcpy(ip.bytes.data(), &v6->sin6_addr, 16);
    ip.scope_id = v6->sin6_scope_id;
  }
  return ip;
}

/// getaddrinfo for TCP; `numeric_only` forbids any lookup. Fails with gai_strerror's words.
Expected<std::vector<IpAddress>> lookup(const std::string& host, bool numeric_only) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = numeric_only ? AI_NUMERICHOST : 0;
  addrinfo* found = nullptr;
  int rc = ::getaddrinfo(host.c_str(), nullptr, &hints, &found);
  if (rc != 0) return make_error("cannot resolve '" + host + "': " + ::gai_strerror(rc));
  std::vector<IpAddress> addresses;
  for (addrinfo* entry = found; entry; entry = entry->ai_next) {
    if (entry->ai_family != AF_INET && entry->ai_family != AF_INET6) continue;
    IpAddress address = from_sockaddr(entry->ai_addr);
    if (std::find(addresses.begin(), addresses.end(), address) == addresses.end()) addresses.push_back(address);
  }
  ::freeaddrinfo(found);
  if (addresses.empty()) return make_error("cannot resolve '" + host + "': no IPv4 or IPv6 address");
  return addresses;
}

}  // namespace

Expected<std::vector<IpAddress>> SystemResolver::resolve(const std::string& host) const { return lookup(host, false); }

Expected<std::optional<IpAddress>> parse_numeric_host(std::string_view host) {
  std::string text(host);
  if (text.size() >= 2 && text.front() == '[' && text.back() == ']') text = text.substr(1, text.size() - 2);
  if (auto zone = text.find('%'); zone != std::string::npos && text.find(':') != std::string::npos) {
    text.erase(zone);  // a zone (%25eth0) only ever goes with link-local and multicast addresses
  }
  bool looks_v6 = text.find(':') != std::string::npos;
  auto numeric = lookup(text, true);
  if (numeric) return std::optional<IpAddress>(numeric->front());
  if (looks_v6) return make_error("'" + std::string(host) + "' is not a valid IPv6 address");
  return std::optional<IpAddress>();
}

}  // namespace agent_run
