#pragma once

#include "base/expected.h"
#include "net/address_check.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agent_run {

/// Turns a host name into addresses. Abstract so tests can answer with chosen addresses (public,
/// private, both, a different answer each time) without DNS.
class HostResolver {
 public:
  virtual ~HostResolver() = default;
  /// Every address `host` resolves to; an error the model can read when it resolves to none.
  virtual Expected<std::vector<IpAddress>> resolve(const std::string& host) const = 0;
};

/// The system's resolver (getaddrinfo: /etc/hosts, then DNS).
class SystemResolver final : public HostResolver {
 public:
  Expected<std::vector<IpAddress>> resolve(const std::string& host) const override;
};

/// `host` as an address when it is written as one, in any spelling the C library accepts and would
/// connect to: dotted, short (`127.1`), octal (`0177.0.0.1`), hex (`0x7f000001`), one decimal number
/// (`2130706433`), IPv6 with or without brackets or a zone (`fe80::1%25eth0`, judged without its
/// zone). nullopt for a name;
/// an error for something that looks like an IPv6 address but is not one.
Expected<std::optional<IpAddress>> parse_numeric_host(std::string_view host);

}  // namespace agent_run
