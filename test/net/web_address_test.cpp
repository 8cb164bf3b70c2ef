#include "net/address_check.h"
#include "net/address_resolver.h"

#include <boost/test/unit_test.hpp>

#include <string>

namespace agent_run {
namespace {

/// How `host` is judged: "public", or the refusal's reason, or the parse error.
std::string judge(const std::string& host) {
  auto numeric = parse_numeric_host(host);
  if (!numeric) return numeric.error().message;
  if (!*numeric) return "a name";
  return refused_address(**numeric).value_or("public " + (*numeric)->to_string());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(web_address)

BOOST_AUTO_TEST_CASE(every_spelling_of_loopback_is_the_loopback_address) {
  for (const char* host :
       {"127.0.0.1", "127.1", "0177.0.0.1", "0x7f.1", "0x7f000001", "2130706433", "017700000001", "0x7f.0x0.0x0.0x1",
        "0177.0x0.0x0.0x1", "127.127.127.127", "[::ffff:127.0.0.1]", "::ffff:7f00:1"}) {
    BOOST_TEST_CONTEXT(host) {
      auto numeric = parse_numeric_host(host);
      BOOST_REQUIRE(numeric.has_value());
      BOOST_REQUIRE(numeric->has_value());
      BOOST_TEST(judge(host).starts_with("a loopback address"));
    }
  }
  BOOST_TEST(judge("0x7f000001") == "a loopback address");
  BOOST_TEST(judge("::ffff:127.0.0.1") == "a loopback address (IPv4-mapped)");
}

BOOST_AUTO_TEST_CASE(each_refused_class_is_named) {
  BOOST_TEST(judge("0") == "an unspecified ('this network') address");
  BOOST_TEST(judge("0.0.0.0") == "an unspecified ('this network') address");
  BOOST_TEST(judge("[::]") == "an unspecified address");
  BOOST_TEST(judge("::1") == "a loopback address");
  BOOST_TEST(judge("0:0:0:0:0:0:0:1") == "a loopback address");
  BOOST_TEST(judge("[0000::1]") == "a loopback address");
  BOOST_TEST(judge("10.0.0.1") == "a private address");
  BOOST_TEST(judge("172.31.255.255") == "a private address");
  BOOST_TEST(judge("192.168.1.1") == "a private address");
  BOOST_TEST(judge("169.254.169.254") == "a link-local address (cloud metadata lives here)");
  BOOST_TEST(judge("::ffff:a9fe:a9fe") == "a link-local address (cloud metadata lives here) (IPv4-mapped)");
  BOOST_TEST(judge("100.100.100.200") == "a carrier-grade NAT address (100.64.0.0/10)");
  BOOST_TEST(judge("100.64.0.1") == "a carrier-grade NAT address (100.64.0.0/10)");
  BOOST_TEST(judge("100.127.255.254") == "a carrier-grade NAT address (100.64.0.0/10)");
  BOOST_TEST(judge("198.18.0.1") == "a benchmarking address");
  BOOST_TEST(judge("224.0.0.1") == "a multicast address");
  BOOST_TEST(judge("255.255.255.255") == "the broadcast address");
  BOOST_TEST(judge("240.0.0.1") == "a reserved address");
  BOOST_TEST(judge("192.0.2.1") == "a documentation address");
  BOOST_TEST(judge("fe80::1") == "a link-local address");
  BOOST_TEST(judge("[fe80::1%25eth0]") == "a link-local address");
  BOOST_TEST(judge("fd00::1") == "a unique-local address");
  BOOST_TEST(judge("fec0::1") == "a site-local address");
  BOOST_TEST(judge("ff02::1") == "a multicast address");
  BOOST_TEST(judge("64:ff9b::a9fe:a9fe") == "a NAT64 address (64:ff9b::/96)");
  BOOST_TEST(judge("64:ff9b::a00:1") == "a NAT64 address (64:ff9b::/96)");
  BOOST_TEST(judge("2002:a9fe:a9fe::1") == "a 6to4 address");
  BOOST_TEST(judge("2002:a00:1::1") == "a 6to4 address");
  BOOST_TEST(judge("2001::1") == "a Teredo address");
  BOOST_TEST(judge("2001:db8::1") == "a documentation address");
  BOOST_TEST(judge("::a00:1") == "an IPv4-compatible address");
  BOOST_TEST(judge("100::1") == "a discard-only address");
  BOOST_TEST(judge("4000::1") == "not a global unicast address");
}

BOOST_AUTO_TEST_CASE(public_addresses_and_the_neighbours_of_refused_ranges_pass) {
  BOOST_TEST(judge("93.184.216.34") == "public 93.184.216.34");
  BOOST_TEST(judge("100.63.255.254") == "public 100.63.255.254");
  BOOST_TEST(judge("100.128.0.1") == "public 100.128.0.1");
  BOOST_TEST(judge("172.32.0.1") == "public 172.32.0.1");
  BOOST_TEST(judge("2001:4860:4860::8888") == "public 2001:4860:4860::8888");
  BOOST_TEST(judge("::ffff:93.184.216.34") == "public ::ffff:93.184.216.34");
}

BOOST_AUTO_TEST_CASE(names_are_left_to_the_resolver_and_broken_ipv6_is_an_error) {
  BOOST_TEST(judge("docs.python.org") == "a name");
  BOOST_TEST(judge("127.0.0.1.nip.io") == "a name");
  BOOST_TEST(judge("[]") == "a name");
  BOOST_TEST(judge("::1::2") == "'::1::2' is not a valid IPv6 address");
}

BOOST_AUTO_TEST_CASE(local_and_metadata_names_are_refused_before_resolution) {
  BOOST_TEST(refused_host_name("localhost").value_or("") == "a name for this machine");
  BOOST_TEST(refused_host_name("LOCALHOST.").value_or("") == "a name for this machine");
  BOOST_TEST(refused_host_name("foo.localhost").value_or("") == "a name for this machine");
  BOOST_TEST(refused_host_name("metadata.google.internal").value_or("") == "a cloud metadata or internal name");
  BOOST_TEST(refused_host_name("d\xC3\xB6"
                               "cs.python.org")
                 .value_or("") == "a host name that is not plain ASCII (write its punycode xn-- form)");
  BOOST_TEST(!refused_host_name("docs.python.org").has_value());
  BOOST_TEST(!refused_host_name("xn--dcs-sna.python.org").has_value());
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
