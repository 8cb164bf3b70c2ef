// web_fetch keeps to the policy's web rules at every hop: a redirect is decided by the same rules,
// read by the same URL parser, as the first URL, before any connection to where it points. Real
// loopback HTTP server; the names resolve to public addresses from a table and every connection is
// routed to the server, which records what it was asked for.
#include "policy/policy_loader.h"
#include "policy/scope_context.h"
#include "support/fixtures.h"
#include "support/web_test_server.h"
#include "tools/tool_registry.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>

using namespace agent_run;
using namespace agent_run::test;

namespace {

const char* const k_policy = R"(version: 1
unmatched: deny
rules:
  - id: docs
    allow: web_fetch
    hosts: [docs.example.com]
    schemes: [http]        # the test server speaks plain HTTP
)";

/// The server, the table resolver, and web_fetch bound to the policy the way a run binds it.
struct FetchFixture {
  WebTestServer server{{
      {"/guide", WebRoute{200, "text/plain", "the guide"}},
      {"/to-guide", WebRoute{302, "text/plain", "", "http://docs.example.com/guide"}},
      {"/to-evil", WebRoute{302, "text/plain", "", "http://evil.example.net/steal?k=1"}},
      {"/to-evil-in-two", WebRoute{302, "text/plain", "", "http://docs.example.com/to-evil"}},
      {"/to-credentials", WebRoute{302, "text/plain", "", "http://docs.example.com@evil.example.net/steal"}},
      {"/steal", WebRoute{200, "text/plain", "STOLEN"}},
  }};
  TableResolver resolver{{{"docs.example.com", {{"93.184.216.34"}}}, {"evil.example.net", {{"93.184.216.35"}}}}};
  ToolRegistry tools = make_tool_registry(std::vector<std::string>{"web_fetch"});
  TempFolder folder;
  ToolScope scope;
  SessionState session;
  Policy policy;

  FetchFixture() {
    Expected<Policy> loaded = load_policy(k_policy, "web.yaml");
    BOOST_REQUIRE_MESSAGE(loaded.has_value(), (loaded ? std::string() : loaded.error().message));
    policy = std::move(*loaded);
    scope.workspace = folder.path();
    scope.web.fetch.resolver = &resolver;
    scope.web.fetch.route_for_test = route_everything_to(server.port());
    bind_policy(policy, scope);
  }

  ToolOutput fetch(const std::string& url) {
    return tools.find("web_fetch")->run(Json::object().set("url", url), scope, session, std::chrono::minutes(2));
  }

  bool asked_for_steal() const {
    const std::vector<std::string> asked = server.requests();
    return std::any_of(asked.begin(), asked.end(),
                       [](const std::string& r) { return r.find("/steal") != std::string::npos; });
  }
};

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

BOOST_FIXTURE_TEST_SUITE(web_fetch_policy, FetchFixture)

BOOST_AUTO_TEST_CASE(a_redirect_within_the_allowed_host_is_followed) {
  ToolOutput page = fetch("http://docs.example.com/to-guide");
  BOOST_TEST(!page.is_error, page.content);
  BOOST_TEST(contains(page.content, "the guide"), page.content);
}

BOOST_AUTO_TEST_CASE(a_redirect_to_a_host_no_rule_allows_is_refused_before_any_connection) {
  for (const std::string start : {"/to-evil", "/to-evil-in-two"}) {
    ToolOutput page = fetch("http://docs.example.com" + start);
    BOOST_TEST_CONTEXT(start << " -> " << page.content) {
      BOOST_TEST(page.is_error);
      BOOST_TEST(contains(page.content, "refused http://evil.example.net/steal?k=1 (redirected from"));
      BOOST_TEST(contains(page.content, "the policy denies it"));
      BOOST_TEST(!contains(page.content, "STOLEN"));
    }
  }
  BOOST_TEST(!asked_for_steal());
  BOOST_TEST(resolver.calls("evil.example.net") == 0);  // refused before the name was even looked up
}

BOOST_AUTO_TEST_CASE(a_redirect_that_the_url_parser_cannot_read_is_refused) {
  ToolOutput page = fetch("http://docs.example.com/to-credentials");
  BOOST_TEST(page.is_error);
  BOOST_TEST(contains(page.content, "the policy denies it"), page.content);
  BOOST_TEST(!asked_for_steal());
}

BOOST_AUTO_TEST_CASE(a_first_url_no_rule_allows_is_refused_too) {
  ToolOutput page = fetch("http://evil.example.net/steal");
  BOOST_TEST(page.is_error);
  BOOST_TEST(contains(page.content, "the policy denies it"), page.content);
  BOOST_TEST(!asked_for_steal());
}

BOOST_AUTO_TEST_SUITE_END()
