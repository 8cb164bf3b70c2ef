// libFuzzer target for the one URL parser (the policy's web rules and web_fetch both read URLs with
// it) and the checks of a fetch's target: whatever the bytes, parse_web_url must not crash; a URL it
// accepts has an http(s) scheme, a port in range, a host of plain characters (or an IPv6 literal)
// and a request target that starts with '/', and reads back as itself when written out again; a
// target check_web_target accepts connects only to addresses that are not refused.
#include "fuzz_support.h"
#include "net/address_check.h"
#include "net/web_target.h"
#include "net/web_url.h"

#include <algorithm>
#include <string>

using namespace agent_run;
using agent_run::fuzz::require;

namespace {

/// Every name resolves to one public address: no DNS, and the checks after the resolver still run.
class PublicResolver final : public HostResolver {
 public:
  Expected<std::vector<IpAddress>> resolve(const std::string&) const override {
    return std::vector<IpAddress>{*IpAddress::parse("93.184.216.34")};
  }
};

bool same(const WebUrl& a, const WebUrl& b) {
  return a.scheme == b.scheme && a.host == b.host && a.port == b.port && a.request_target == b.request_target;
}

void check_url(const WebUrl& url) {
  require(url.scheme == "http" || url.scheme == "https");
  require(url.port >= 1 && url.port <= 65535);
  require(!url.host.empty());
  if (url.host.front() != '[') require(std::all_of(url.host.begin(), url.host.end(), is_host_char));
  require(url.request_target.starts_with("/") && url.request_target.find('#') == std::string::npos);
  auto again = parse_web_url(url.scheme + "://" + url.host + ":" + std::to_string(url.port) + url.request_target);
  require(again.has_value() && same(*again, url));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(fuzz::as_text(data, size));
  auto url = parse_web_url(text);
  if (url) check_url(*url);
  static const PublicResolver resolver;
  auto target = check_web_target(text, resolver);
  if (target) {
    require(url.has_value());  // the fetch refuses what the policy's parser refuses
    require(!target->addresses.empty());
    for (const IpAddress& address : target->addresses) require(!refused_address(address).has_value());
  }
  return 0;
}
