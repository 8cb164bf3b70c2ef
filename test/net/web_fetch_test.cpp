#include "net/web_client.h"
#include "support/loopback_listener.h"
#include "support/web_test_server.h"

#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <string>

namespace agent_run {
namespace {

using namespace std::chrono_literals;
using test::LoopbackListener;
using test::TableResolver;
using test::WebRoute;
using test::WebTestServer;

// Public-looking addresses the resolver gives test names; the route seam sends their connections
// to a loopback server. Neither is in a refused range.
constexpr const char* k_public = "93.184.216.34";
constexpr const char* k_other_public = "151.101.1.69";

/// Names for the tests, each resolving as its name says.
TableResolver make_resolver() {
  return TableResolver({
      {"docs.example.com", {{k_public}}},
      {"next.example.com", {{k_other_public}}},
      {"intranet.example.com", {{"10.0.0.7"}}},
      {"loopback.example.com", {{"127.0.0.1"}}},
      {"mixed.example.com", {{k_public, "127.0.0.1"}}},
      {"docs.example.com.127.0.0.1.nip.io", {{"127.0.0.1"}}},
      {"v6-metadata.example.com", {{"fd00:ec2::254"}}},
      {"rebind.example.com", {{k_public}, {"127.0.0.1"}}},
  });
}

/// The URLs of policy-and-security.md section 5.5 aimed at `port`, each to be refused before any byte is sent.
std::vector<std::string> refused_urls(int port) {
  std::string p = ":" + std::to_string(port);
  return {"http://127.0.0.1" + p + "/", "http://localhost" + p + "/", "http://LOCALHOST." + p + "/",
          "http://foo.localhost" + p + "/", "http://127.1" + p + "/", "http://0177.0.0.1" + p + "/",
          "http://0x7f.1" + p + "/", "http://0x7f000001" + p + "/", "http://2130706433" + p + "/",
          "http://017700000001" + p + "/", "http://0" + p + "/", "http://0.0.0.0" + p + "/", "http://[::]" + p + "/",
          "http://[::1]" + p + "/", "http://[0:0:0:0:0:0:0:1]" + p + "/", "http://[::ffff:127.0.0.1]" + p + "/",
          "http://[::ffff:7f00:1]" + p + "/", "http://[::ffff:a9fe:a9fe]/", "http://[64:ff9b::a9fe:a9fe]/",
          "http://[2002:a9fe:a9fe::1]/", "http://169.254.169.254/latest/meta-data/", "http://metadata.google.internal/",
          "http://100.100.100.200/", "http://[fe80::1%25eth0]/", "http://[fd00::1]/", "http://10.0.0.1/",
          "http://192.168.1.1/", "http://198.18.0.1/", "http://224.0.0.1/", "http://255.255.255.255/",
          "http://public@127.0.0.1" + p + "/", "http://127.0.0.1" + p + "#@docs.example.com/",
          "http://docs.example.com.127.0.0.1.nip.io" + p + "/", "http://intranet.example.com/",
          "http://loopback.example.com" + p + "/", "http://mixed.example.com" + p + "/",
          "http://v6-metadata.example.com/", "file:///etc/passwd", "gopher://docs.example.com/",
          "ftp://docs.example.com/", "http://[]/", "http://:123/",
          "http://d\xC3\xB6"
          "cs.example.com/",
          // what the policy's parser refuses (one parser reads both): docs.example.com would connect
          "http://docs.example.com\\@intranet.example.com/", "http://%64ocs.example.com/",
          "http://docs.example.com/a b", "http://docs.example.com:/", "http://docs.example.com:99999/"};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(web_fetch)

BOOST_AUTO_TEST_CASE(every_refused_address_class_is_refused_before_any_connection) {
  LoopbackListener listener;
  TableResolver resolver = make_resolver();
  WebFetchOptions options;
  options.resolver = &resolver;
  options.route_for_test = test::route_everything_to(listener.port());  // a missed check would connect here
  for (const std::string& url : refused_urls(listener.port())) {
    BOOST_TEST_CONTEXT(url) {
      auto page = fetch_web_page(url, options);
      BOOST_TEST(!page.has_value());
      if (!page) BOOST_TEST(page.error().message.find("refused") != std::string::npos, page.error().message);
      if (!page) BOOST_TEST_MESSAGE(page.error().message);
    }
  }
  BOOST_TEST(listener.connections() == 0);
  // The control: a public name goes through the same route and reaches the listener.
  auto control = fetch_web_page("http://docs.example.com/", options);
  BOOST_TEST(listener.connections() == 1);
  listener.connect_directly();
  BOOST_TEST(listener.connections() == 2);
}

BOOST_AUTO_TEST_CASE(the_refusal_says_what_the_address_is) {
  WebFetchOptions options;
  auto page = fetch_web_page("http://0x7f000001:9/x", options);
  BOOST_REQUIRE(!page.has_value());
  BOOST_TEST(page.error().message ==
             "refused http://0x7f000001:9/x: '0x7f000001' is 127.0.0.1, a loopback address; web_fetch connects only "
             "to public addresses");
  auto scheme = fetch_web_page("file:///etc/passwd", options);
  BOOST_TEST(scheme.error().message ==
             "refused file:///etc/passwd: the URL 'file:///etc/passwd' has the scheme 'file'; only http and https are "
             "fetched");
}

BOOST_AUTO_TEST_CASE(a_redirect_to_a_public_looking_host_is_followed_through_the_checks) {
  WebTestServer server({{"/start", WebRoute{302, "text/html", "moving", "http://next.example.com/page?q=1"}},
                        {"/page?q=1", WebRoute{200, "text/html", "<title>Next</title><p>arrived</p>"}}});
  TableResolver resolver = make_resolver();
  WebFetchOptions options;
  options.resolver = &resolver;
  options.route_for_test = [&](const WebEndpoint& endpoint) {
    BOOST_TEST((endpoint.address.to_string() == k_public || endpoint.address.to_string() == k_other_public));
    return WebEndpoint{*IpAddress::parse("127.0.0.1"), server.port()};
  };
  auto page = fetch_web_page("http://docs.example.com/start", options);
  BOOST_REQUIRE_MESSAGE(page.has_value(), (page ? "" : page.error().message));
  BOOST_TEST(page->url == "http://next.example.com/page?q=1");
  BOOST_TEST(page->status == 200);
  BOOST_TEST(page->body == "<title>Next</title><p>arrived</p>");
  BOOST_TEST((page->redirects == std::vector<std::string>{"http://docs.example.com/start"}));
  BOOST_TEST((server.requests() == std::vector<std::string>{"docs.example.com /start", "next.example.com /page?q=1"}));
  BOOST_TEST(resolver.calls("docs.example.com") == 1);
  BOOST_TEST(resolver.calls("next.example.com") == 1);
}

BOOST_AUTO_TEST_CASE(a_redirect_to_a_refused_target_is_refused_before_connecting_to_it) {
  LoopbackListener listener;
  std::string loopback = "http://127.0.0.1:" + std::to_string(listener.port()) + "/";
  WebTestServer server({{"/to-loopback", WebRoute{302, "text/html", "", loopback}},
                        {"/to-metadata", WebRoute{307, "text/html", "", "http://169.254.169.254/latest/meta-data/"}},
                        {"/to-private-name", WebRoute{308, "text/html", "", "http://intranet.example.com/admin"}},
                        {"/to-file", WebRoute{302, "text/html", "", "file:///etc/passwd"}},
                        {"/to-gopher", WebRoute{302, "text/html", "", "gopher://docs.example.com/"}},
                        {"/to-dict", WebRoute{301, "text/html", "", "dict://docs.example.com:2628/"}}});
  TableResolver resolver = make_resolver();
  WebFetchOptions options;
  options.resolver = &resolver;
  options.route_for_test =
      [&](const WebEndpoint& endpoint) {  // public names to the server, anything else to the listener
        bool is_public = endpoint.address.to_string() == k_public;
        return WebEndpoint{*IpAddress::parse("127.0.0.1"), is_public ? server.port() : listener.port()};
      };
  for (const char* path : {"/to-loopback", "/to-metadata", "/to-private-name", "/to-file", "/to-gopher", "/to-dict"}) {
    BOOST_TEST_CONTEXT(path) {
      auto page = fetch_web_page(std::string("http://docs.example.com") + path, options);
      BOOST_REQUIRE(!page.has_value());
      BOOST_TEST(page.error().message.find("(redirected from http://docs.example.com" + std::string(path) + ")") !=
                     std::string::npos,
                 page.error().message);
    }
  }
  BOOST_TEST(server.requests().size() == 6u);  // every first hop was fetched
  BOOST_TEST(listener.connections() == 0);     // no redirect target was ever connected to
}

BOOST_AUTO_TEST_CASE(a_redirect_chain_past_the_limit_stops) {
  WebTestServer server({{"/loop", WebRoute{302, "text/html", "", "/loop"}}});
  TableResolver resolver = make_resolver();
  WebFetchOptions options;
  options.resolver = &resolver;
  options.limits.max_redirects = 3;
  options.route_for_test = test::route_everything_to(server.port());
  auto page = fetch_web_page("http://docs.example.com/loop", options);
  BOOST_REQUIRE(!page.has_value());
  BOOST_TEST(page.error().message == "more than 3 redirects, the last to /loop");
  BOOST_TEST(server.requests().size() == 4u);
}

BOOST_AUTO_TEST_CASE(dns_rebinding_cannot_change_the_address_after_the_check) {
  WebTestServer server({{"/", WebRoute{200, "text/plain", "the checked server"}}});
  TableResolver resolver = make_resolver();
  WebFetchOptions options;
  options.resolver = &resolver;
  std::vector<std::string> connected;
  options.route_for_test = [&](const WebEndpoint& endpoint) {
    connected.push_back(endpoint.address.to_string());
    return WebEndpoint{*IpAddress::parse("127.0.0.1"), server.port()};
  };
  auto page = fetch_web_page("http://rebind.example.com/", options);
  BOOST_REQUIRE(page.has_value());
  BOOST_TEST(resolver.calls("rebind.example.com") == 1);  // resolved once; a second answer would be 127.0.0.1
  BOOST_TEST((connected == std::vector<std::string>{k_public}));
}

BOOST_AUTO_TEST_CASE(the_body_is_capped_and_the_whole_fetch_has_a_deadline) {
  WebTestServer server({{"/big", WebRoute{200, "text/plain", std::string(100000, 'x')}},
                        {"/slow", WebRoute{200, "text/plain", std::string(100, 'y'), "", 200ms}}});
  TableResolver resolver = make_resolver();
  WebFetchOptions options;
  options.resolver = &resolver;
  options.route_for_test = test::route_everything_to(server.port());
  options.limits.max_body_bytes = 1000;
  auto big = fetch_web_page("http://docs.example.com/big", options);
  BOOST_REQUIRE(big.has_value());
  BOOST_TEST(big->body == std::string(1000, 'x'));
  BOOST_TEST(big->truncated);
  options.limits.timeout = 1s;
  auto started = std::chrono::steady_clock::now();
  auto slow = fetch_web_page("http://docs.example.com/slow", options);  // a trickle: 100 bytes, one per 200 ms
  auto took = std::chrono::steady_clock::now() - started;
  BOOST_REQUIRE(!slow.has_value());
  BOOST_TEST(slow.error().message == "timed out after 1s");
  BOOST_TEST((took < 20s));  // cut before the trickle's 20 s were over
}

BOOST_AUTO_TEST_CASE(a_proxy_from_the_environment_is_not_used) {
  LoopbackListener proxy;
  WebTestServer server({{"/", WebRoute{200, "text/plain", "direct"}}});
  TableResolver resolver = make_resolver();
  WebFetchOptions options;
  options.resolver = &resolver;
  options.route_for_test = test::route_everything_to(server.port());
  std::string proxy_url = "http://127.0.0.1:" + std::to_string(proxy.port());
  ::setenv("http_proxy", proxy_url.c_str(), 1);
  ::setenv("HTTP_PROXY", proxy_url.c_str(), 1);
  auto page = fetch_web_page("http://docs.example.com/", options);
  ::unsetenv("http_proxy");
  ::unsetenv("HTTP_PROXY");
  BOOST_REQUIRE(page.has_value());
  BOOST_TEST(page->body == "direct");
  BOOST_TEST(proxy.connections() == 0);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
