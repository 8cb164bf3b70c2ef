#include "support/fixtures.h"
#include "support/loopback_listener.h"
#include "support/web_test_server.h"
#include "tools/tool_registry.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;
using namespace agent_run::test;

BOOST_AUTO_TEST_SUITE(web_fetch_tool)

BOOST_AUTO_TEST_CASE(web_tools_are_offered_only_when_the_task_lists_them) {
  std::vector<std::string> by_default = make_tool_registry(std::nullopt).names();
  BOOST_TEST((by_default == std::vector<std::string>{"read_file", "glob", "grep", "edit_file", "write_file", "bash",
                                                     "process_output", "process_kill", "todo_write", "context_status",
                                                     "ask_user"}));
  std::vector<std::string> listed = make_tool_registry(std::vector<std::string>{"web_fetch", "bash"}).names();
  BOOST_TEST((listed == std::vector<std::string>{"bash", "web_fetch"}));
}

BOOST_AUTO_TEST_CASE(a_page_comes_back_as_readable_text) {
  WebTestServer server({{"/guide", WebRoute{200, "text/html; charset=utf-8",
                                            "<html><head><title>Guide</title></head><body><h2>Install</h2>"
                                            "<p>Run <code>make</code>.</p><script>evil()</script></body></html>"}},
                        {"/missing", WebRoute{404, "text/plain", "no such page"}},
                        {"/logo.png", WebRoute{200, "image/png", std::string("\x89PNG\r\n", 6)}}});
  TableResolver resolver({{"docs.example.com", {{"93.184.216.34"}}}});
  ToolRegistry tools = make_tool_registry(std::vector<std::string>{"web_fetch"});
  ToolScope scope;
  SessionState session;
  scope.web.fetch.resolver = &resolver;
  scope.web.fetch.route_for_test = route_everything_to(server.port());
  auto fetch = [&](const std::string& url) {
    return tools.find("web_fetch")->run(Json::object().set("url", url), scope, session, std::chrono::minutes(2));
  };
  ToolOutput page = fetch("http://docs.example.com/guide");
  BOOST_TEST(!page.is_error);
  BOOST_TEST(page.content ==
             "URL: http://docs.example.com/guide\nStatus: 200 OK\nContent-Type: text/html; charset=utf-8\n\n"
             "# Guide\n\n## Install\n\nRun make.\n");
  ToolOutput missing = fetch("http://docs.example.com/missing");
  BOOST_TEST(missing.is_error);
  BOOST_TEST(missing.content.ends_with("Status: 404 Not Found\nContent-Type: text/plain\n\nno such page\n"));
  BOOST_TEST(fetch("http://docs.example.com/logo.png").content.ends_with("[binary content, 6 bytes; not shown]\n"));
}

BOOST_AUTO_TEST_CASE(a_loopback_url_is_refused_and_nothing_connects) {
  LoopbackListener listener;
  ToolRegistry tools = make_tool_registry(std::vector<std::string>{"web_fetch"});
  ToolScope scope;
  SessionState session;
  std::string url = "http://127.1:" + std::to_string(listener.port()) + "/";
  ToolOutput output =
      tools.find("web_fetch")->run(Json::object().set("url", url), scope, session, std::chrono::minutes(2));
  BOOST_TEST(output.is_error);
  BOOST_TEST(output.content ==
             "web_fetch: refused " + url +
                 ": '127.1' is 127.0.0.1, a loopback address; web_fetch connects only to public addresses");
  BOOST_TEST(listener.connections() == 0);
}

BOOST_AUTO_TEST_SUITE_END()
