#include "support/fixtures.h"
#include "tools/tool_registry.h"

#include <boost/test/unit_test.hpp>

#include <sys/stat.h>

#include <cstdlib>

using namespace agent_run;
using namespace agent_run::test;

namespace {

/// A workspace with a search command standing in for ddgs: it prints its arguments as results.
struct SearchFixture {
  TempFolder folder;
  TempFolder bin;
  ToolRegistry tools = make_tool_registry(std::vector<std::string>{"web_search"});
  ToolScope scope;
  SessionState session;
  std::chrono::milliseconds timeout = std::chrono::minutes(2);  // what one call may take
  SearchFixture() {
    std::filesystem::path script = bin.write("search",
                                             "#!/bin/sh\n"
                                             "[ \"$1\" = fail ] && { echo 'rate limited' >&2; exit 2; }\n"
                                             "echo \"1. Result for [$1] (max $2)\"\n"
                                             "echo '   https://example.org/1'\n");
    ::chmod(script.c_str(), 0755);
    scope.workspace = folder.path();
    scope.environment = {std::string("PATH=") + std::getenv("PATH")};
    scope.web.search_command = {script.string(), "{query}", "{max_results}"};
  }
  ToolOutput search(Json input) { return tools.find("web_search")->run(input, scope, session, timeout); }
};

}  // namespace

BOOST_FIXTURE_TEST_SUITE(web_search_tool, SearchFixture)

BOOST_AUTO_TEST_CASE(runs_the_configured_command_and_returns_its_results) {
  ToolOutput output = search(Json::object().set("query", "poco http client timeout").set("max_results", 3));
  BOOST_TEST(!output.is_error);
  BOOST_TEST(output.content == "1. Result for [poco http client timeout] (max 3)\n   https://example.org/1\n");
}

BOOST_AUTO_TEST_CASE(the_query_is_one_argument_never_shell_text) {
  ToolOutput output = search(Json::object().set("query", "x; touch pwned $(touch pwned2)"));
  BOOST_TEST(output.content.starts_with("1. Result for [x; touch pwned $(touch pwned2)] (max 5)\n"));
  BOOST_TEST(!std::filesystem::exists(folder.path() / "pwned"));
  BOOST_TEST(!std::filesystem::exists(folder.path() / "pwned2"));
}

BOOST_AUTO_TEST_CASE(a_failing_command_is_an_error_with_its_output) {
  ToolOutput output = search(Json::object().set("query", "fail"));
  BOOST_TEST(output.is_error);
  BOOST_TEST(output.content == "web_search: the search command exited 2:\nrate limited\n");
}

BOOST_AUTO_TEST_CASE(without_custom_mode_it_is_not_configured) {
  scope.web.search_command.clear();
  BOOST_TEST(search(Json::object().set("query", "x")).content ==
             "web_search: web search is not configured for this task (web_search: custom)");
  BOOST_TEST(make_tool_registry(std::nullopt).find("web_search") == nullptr);
}

BOOST_AUTO_TEST_SUITE_END()
