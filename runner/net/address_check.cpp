#include "net/address_check.h"

#include "base/text.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cctype>

namespace agent_run {

namespace {

/// A block of addresses web_fetch refuses and what to call it.
struct RefusedRange {
  std::array<std::uint8_t, 16> prefix;
  int bits;
  const char* kind;
};

// IPv4 ranges (the union of safeurl's ip.go and smokescreen, see policy-and-security.md section 5.2).
constexpr RefusedRange k_refused_v4[] = {
    {{0, 0, 0, 0}, 8, "an unspecified ('this network') address"},
    {{10, 0, 0, 0}, 8, "a private address"},
    {{100, 64, 0, 0}, 10, "a carrier-grade NAT address (100.64.0.0/10)"},
    {{127, 0, 0, 0}, 8, "a loopback address"},
    {{169, 254, 0, 0}, 16, "a link-local address (cloud metadata lives here)"},
    {{172, 16, 0, 0}, 12, "a private address"},
    {{192, 0, 0, 0}, 24, "an IETF protocol address"},
    {{192, 0, 2, 0}, 24, "a documentation address"},
    {{192, 88, 99, 0}, 24, "a 6to4 relay address"},
    {{192, 168, 0, 0}, 16, "a private address"},
    {{198, 18, 0, 0}, 15, "a benchmarking address"},
    {{198, 51, 100, 0}, 24, "a documentation address"},
    {{203, 0, 113, 0}, 24, "a documentation address"},
    {{224, 0, 0, 0}, 4, "a multicast address"},
    {{255, 255, 255, 255}, 32, "the broadcast address"},
    {{240, 0, 0, 0}, 4, "a reserved address"},
};

// IPv6 ranges. Everything outside 2000::/3 (global unicast) is refused anyway; these name the
// common cases and the special blocks inside 2000::/3.
constexpr RefusedRange k_refused_v6[] = {
    {{}, 128, "an unspecified address"},
    {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, 128, "a loopback address"},
    {{}, 96, "an IPv4-compatible address"},
    {{0, 0x64, 0xff, 0x9b}, 96, "a NAT64 address (64:ff9b::/96)"},
    {{0, 0x64, 0xff, 0x9b, 0, 1}, 48, "a NAT64 address (64:ff9b:1::/48)"},
    {{1, 0}, 64, "a discard-only address"},
    {{0xfc}, 7, "a unique-local address"},
    {{0xfe, 0x80}, 10, "a link-local address"},
    {{0xfe, 0xc0}, 10, "a site-local address"},
    {{0xff}, 8, "a multicast address"},
    {{0x20, 0x01, 0x0d, 0xb8}, 32, "a documentation address"},
    {{0x20, 0x01, 0, 0}, 32, "a Teredo address"},
    {{0x20, 0x01, 0, 0}, 23, "an IETF protocol address"},
    {{0x20, 0x02}, 16, "a 6to4 address"},
    {{0x3f, 0xff}, 20, "a documentation address"},
};

bool in_range(const IpAddress& address, const RefusedRange& range) {
  for (int bit = 0; bit < range.bits; ++bit) {
    int byte = bit / 8;
    int mask = 0x80 >> (bit % 8);
    if ((address.bytes[byte] & mask) != (range.prefix[byte] & mask)) return false;
  }
  return true;
}

/// The IPv4 address inside an IPv4-mapped IPv6 address (::ffff:a.b.c.d).
std::optional<IpAddress> mapped_ipv4(const IpAddress& address) {
  static constexpr std::array<std::uint8_t, 12> k_mapped_prefix = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  if (address.family != IpAddress::Family::v6 ||
      !std::equal(k_mapped_prefix.begin(), k_mapped_prefix.end(), address.bytes.begin())) {
    return std::nullopt;
  }
  IpAddress v4;
  std::copy(address.bytes.begin() + 12, address.bytes.end(), v4.bytes.begin());
  return v4;
}

}  // namespace

std::string IpAddress::to_string() const {
  char text[INET6_ADDRSTRLEN] = {};
  ::inet_ntop(family == Family::v4 ? AF_INET : AF_INET6, bytes.data(), text, sizeof text);
  return text;
}

std::optional<IpAddress> IpAddress::parse(std::string_view text) {
  std::string copy(text);
  IpAddress address;
  if (::inet_pton(AF_INET, copy.c_str(), address.bytes.data()) == 1) return address;
  address.family = Family::v6;
  if (::inet_pton(AF_INET6, copy.c_str(), address.bytes.data()) == 1) return address;
  return std::nullopt;
}

std::optional<std::string> refused_address(const IpAddress& address) {
  if (auto v4 = mapped_ipv4(address)) {
    auto reason = refused_address(*v4);
    return reason ? std::optional<std::string>(*reason + " (IPv4-mapped)") : std::nullopt;
  }
  if (address.family == IpAddress::Family::v4) {
    for (const RefusedRange& range : k_refused_v4) {
      if (in_range(address, range)) return std::string(range.kind);
    }
    return std::nullopt;
  }
  for (const RefusedRange& range : k_refused_v6) {
    if (in_range(address, range)) return std::string(range.kind);
  }
  if ((address.bytes[0] & 0xe0) != 0x20) return std::string("not a global unicast address");
  return std::nullopt;
}

std::optional<std::string> refused_host_name(std::string_view host) {
  std::string name = to_lower(host);
  if (!name.empty() && name.back() == '.') name.pop_back();
  if (std::any_of(name.begin(), name.end(), [](unsigned char c) { return c >= 0x80; })) {
    return "a host name that is not plain ASCII (write its punycode xn-- form)";
  }
  if (name == "localhost" || name.ends_with(".localhost") || name == "localhost.localdomain" ||
      name == "ip6-localhost" || name == "ip6-loopback") {
    return "a name for this machine";
  }
  if (name == "metadata.google.internal" || name == "metadata" || name == "instance-data" ||
      name.ends_with(".internal")) {
    return "a cloud metadata or internal name";
  }
  return std::nullopt;
}

}  // namespace agent_run
