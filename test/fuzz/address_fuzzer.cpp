// libFuzzer target for web_fetch's address checks: whatever the bytes, parse_numeric_host (every
// spelling the C library would connect to), IpAddress::parse and the refusal checks must not
// crash; an address reads back from its own spelling; an IPv4-mapped IPv6 address is judged as the
// IPv4 address inside it; and a host name is refused or not whatever its case and a trailing dot.
#include "fuzz_support.h"
#include "net/address_check.h"
#include "net/address_resolver.h"

#include <string>

using namespace agent_run;
using agent_run::fuzz::require;

namespace {

void check_address(const IpAddress& address) {
  auto again = IpAddress::parse(address.to_string());
  require(again.has_value());
  if (address.scope_id == 0) require(*again == address);
  const bool refused = refused_address(address).has_value();
  if (address.family == IpAddress::Family::v4) {
    IpAddress mapped;
    mapped.family = IpAddress::Family::v6;
    mapped.bytes[10] = mapped.bytes[11] = 0xFF;
    for (int i = 0; i < 4; ++i) mapped.bytes[12 + i] = address.bytes[i];
    require(refused_address(mapped).has_value() == refused);
  }
}

std::string upper(std::string text) {
  for (char& c : text) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return text;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(fuzz::as_text(data, size));
  if (text.find('\0') != std::string::npos) return 0;  // hosts reach these checks as C strings
  if (auto parsed = IpAddress::parse(text)) check_address(*parsed);
  if (auto numeric = parse_numeric_host(text); numeric && *numeric) check_address(**numeric);
  const bool refused = refused_host_name(text).has_value();
  require(refused_host_name(upper(text)).has_value() == refused);
  if (!text.empty() && text.back() != '.') require(refused_host_name(text + ".").has_value() == refused);
  return 0;
}
