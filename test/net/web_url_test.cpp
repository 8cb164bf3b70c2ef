#include "net/web_url.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;

BOOST_AUTO_TEST_SUITE(web_url)

BOOST_AUTO_TEST_CASE(urls_are_read_one_way_or_refused) {
  Expected<WebUrl> target = parse_web_url("HTTPS://Docs.Python.ORG.:8443/x?y#z");
  BOOST_REQUIRE(target.has_value());
  BOOST_TEST(target->scheme == "https");
  BOOST_TEST(target->host == "docs.python.org");
  BOOST_TEST(target->port == 8443);
  BOOST_TEST(parse_web_url("http://[::1]/").value().host == "[::1]");
  BOOST_TEST(parse_web_url("http://[::1]/").value().port == 80);
  BOOST_TEST(parse_web_url("http://a@b/").error().message ==
             "the URL 'http://a@b/' carries credentials (user@host), which are refused");
  BOOST_TEST(parse_web_url("http://x:0/").error().message == "the URL 'http://x:0/' has a bad port");
  BOOST_TEST(parse_web_url("http://x:/").error().message == "the URL 'http://x:/' has a bad port");
  BOOST_TEST(parse_web_url("http:///x").error().message == "the URL 'http:///x' has no host");
  BOOST_TEST(parse_web_url("gopher://x/").error().message ==
             "the URL 'gopher://x/' has the scheme 'gopher'; only http and https are fetched");
  BOOST_TEST(parse_web_url("http://[::1/").error().message ==
             "the URL 'http://[::1/' has an unterminated IPv6 address");
}

BOOST_AUTO_TEST_CASE(the_request_target_is_the_path_and_query_as_written_without_the_fragment) {
  BOOST_TEST(parse_web_url("HTTPS://Docs.Python.ORG.:8443/x?y#z").value().request_target == "/x?y");
  BOOST_TEST(parse_web_url("http://example.com").value().request_target == "/");
  BOOST_TEST(parse_web_url("http://example.com?q=1").value().request_target == "/?q=1");
  BOOST_TEST(parse_web_url("http://example.com#top").value().request_target == "/");
  BOOST_TEST(parse_web_url("http://example.com/a%20b/(c)").value().request_target == "/a%20b/(c)");
}

BOOST_AUTO_TEST_CASE(what_two_parsers_could_read_differently_is_refused) {
  BOOST_TEST(parse_web_url("http://127.0.0.1:9#@docs.example.com/").value().host == "127.0.0.1");
  BOOST_TEST(parse_web_url("http://evil.example\\@docs.example.com/").error().message ==
             "the URL 'http://evil.example\\@docs.example.com/' has whitespace, a backslash, a control or a non-ASCII "
             "character");
  BOOST_TEST(parse_web_url("http://%6c%6fcalhost/").error().message ==
             "the URL 'http://%6c%6fcalhost/' has a percent-encoded host");
  BOOST_TEST(parse_web_url("http://exa mple.com/").error().message ==
             "the URL 'http://exa mple.com/' has whitespace, a backslash, a control or a non-ASCII character");
  BOOST_TEST(parse_web_url("docs.example.com/x").error().message ==
             "'docs.example.com/x' is not an absolute http or https URL");
}

// Found by the web_url fuzzer: `localhost..` was read as the host `localhost.`, which any other
// reader (a rule's hosts, the resolver) takes for `localhost`; empty labels are refused instead.
BOOST_AUTO_TEST_CASE(a_host_with_an_empty_label_is_refused) {
  for (const char* url : {"http://localhost../", "http://docs..example.com/", "http://.example.com/", "http://./"}) {
    auto parsed = parse_web_url(url);
    BOOST_REQUIRE_MESSAGE(!parsed.has_value(), url);
    BOOST_TEST(parsed.error().message.find("has a host with an empty label") != std::string::npos,
               parsed.error().message);
  }
  BOOST_TEST(parse_web_url("http://docs.example.com./").value().host == "docs.example.com");  // one final dot is fine
}

BOOST_AUTO_TEST_SUITE_END()
