#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace agent_run {

/// An IPv4 or IPv6 address in binary form, as a resolver produced it: what web_fetch checks and
/// then connects to, never a host string.
struct IpAddress {
  enum class Family { v4, v6 };
  Family family = Family::v4;
  std::array<std::uint8_t, 16> bytes{};  // IPv4 uses the first four
  std::uint32_t scope_id = 0;            // IPv6 zone (fe80::1%eth0)

  /// The address in its standard spelling (inet_ntop), e.g. `127.0.0.1` or `::ffff:127.0.0.1`.
  std::string to_string() const;
  /// Parses the standard spellings only (inet_pton): `93.184.216.34`, `2001:db8::1`.
  static std::optional<IpAddress> parse(std::string_view text);
  friend bool operator==(const IpAddress&, const IpAddress&) = default;
};

/// Why web_fetch must not connect to `address` (loopback, private, link-local, unique-local,
/// carrier-grade NAT, multicast, unspecified, broadcast, documentation, NAT64/6to4/Teredo, ...), or
/// nullopt for a public unicast address. IPv4-mapped IPv6 addresses are judged as the IPv4 inside.
std::optional<std::string> refused_address(const IpAddress& address);

/// Why web_fetch must not even resolve `host` (localhost, *.localhost, cloud metadata names, a name
/// that is not plain ASCII), or nullopt. `host` is compared without case and without a trailing dot.
std::optional<std::string> refused_host_name(std::string_view host);

}  // namespace agent_run
