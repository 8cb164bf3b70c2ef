// The MCP client against the real reference server, @modelcontextprotocol/server-everything, over
// streamable HTTP on 127.0.0.1.
#include "mcp/http_transport.h"
#include "net/http_client.h"
#include "support/mcp_servers.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>

using namespace agent_run;
using namespace agent_run::test;
using namespace std::chrono_literals;

namespace {

/// A client over HTTP that keeps a view of its transport, for the session facts.
struct HttpSession {
  explicit HttpSession(const std::string& url, McpClientSettings settings = {}) {
    auto owned = std::make_unique<HttpTransport>(HttpEndpoint{url, {}}, nullptr);
    transport = owned.get();
    auto connected = McpClient::connect(std::move(owned), std::move(settings));
    BOOST_REQUIRE_MESSAGE(connected.has_value(), (connected ? std::string() : connected.error().message));
    client = std::move(*connected);
  }
  HttpTransport* transport = nullptr;
  std::unique_ptr<McpClient> client;
};

std::string all_text(const McpCallResult& result) {
  std::string text;
  for (const McpContent& block : result.content) text += block.text + "\n";
  return text;
}

/// What a POST with `session` as its session id gets from the server now.
int status_of_post_with(const std::string& url, const std::string& session) {
  HttpRequest request;
  request.url = url;
  request.headers = {{"Content-Type", "application/json"},
                     {"Accept", "application/json, text/event-stream"},
                     {"Mcp-Session-Id", session}};
  request.body = R"({"jsonrpc":"2.0","id":9,"method":"ping"})";
  auto stream = HttpStream::open(request, HttpLimits{});
  BOOST_REQUIRE(stream.has_value());
  return stream->status();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(everything_over_http)

BOOST_AUTO_TEST_CASE(a_session_is_opened_and_echo_answers_over_an_event_stream) {
  EverythingHttpServer server;
  HttpSession session(server.url());
  BOOST_TEST(session.client->server().protocol_version == "2025-11-25");
  BOOST_TEST(!session.transport->session_id().empty());
  McpCallResult result = session.client->call_tool("echo", Json::object().set("message", "hi over http"), 30s);
  BOOST_TEST(!result.is_error);
  BOOST_REQUIRE(!result.content.empty());
  BOOST_TEST(result.content[0].text == "Echo: hi over http");
}

BOOST_AUTO_TEST_CASE(the_tools_list_and_the_image_and_structured_results_come_over_http) {
  EverythingHttpServer server;
  HttpSession session(server.url());
  auto tools = session.client->list_tools();
  BOOST_REQUIRE_MESSAGE(tools.has_value(), (tools ? std::string() : tools.error().message));
  BOOST_TEST(tools->size() >= 12u);
  McpCallResult image = session.client->call_tool("get-tiny-image", Json::object(), 30s);
  BOOST_TEST(std::any_of(image.content.begin(), image.content.end(),
                         [](const McpContent& block) { return block.kind == McpContentKind::image; }));
  McpCallResult structured =
      session.client->call_tool("get-structured-content", Json::object().set("location", "Chicago"), 30s);
  BOOST_TEST(structured.structured.has_value());
}

BOOST_AUTO_TEST_CASE(progress_for_a_long_running_tool_arrives_on_its_stream) {
  EverythingHttpServer server;
  HttpSession session(server.url());
  McpCallResult result = session.client->call_tool("trigger-long-running-operation",
                                                   Json::object().set("duration", 0.3).set("steps", 3), 60s);
  BOOST_TEST(!result.is_error);
  BOOST_TEST(result.progress_updates == 3);
}

BOOST_AUTO_TEST_CASE(logging_the_server_starts_arrives_on_the_standalone_stream) {
  EverythingHttpServer server;
  HttpSession session(server.url());
  McpCallResult result = session.client->call_tool("toggle-simulated-logging", Json::object(), 30s);
  BOOST_TEST(!result.is_error);
  // server-everything sends these on the GET stream, not on the tool call's own stream.
  BOOST_TEST(eventually([&] { return session.client->log().message_count > 0; }));
  BOOST_TEST(session.client->log().messages.front().text.find("SessionId") != std::string::npos);
  BOOST_TEST(session.transport->standalone_stream_problem().empty());
}

BOOST_AUTO_TEST_CASE(an_elicitation_related_to_a_call_is_answered_by_post) {
  McpClientSettings settings;
  settings.offer.elicitation = [](const ElicitationRequest& request) {
    auto filled = fill_form(request.requested_schema, "Grace Hopper");
    return ElicitationAnswer{ElicitationAction::accept, filled ? *filled : Json::object(), "test", ""};
  };
  EverythingHttpServer server;
  HttpSession session(server.url(), settings);
  McpCallResult result = session.client->call_tool("trigger-elicitation-request", Json::object(), 30s);
  BOOST_TEST(all_text(result).find("Name: Grace Hopper") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(close_ends_the_session_with_delete) {
  EverythingHttpServer server;
  std::string session_id;
  {
    HttpSession session(server.url());
    session_id = session.transport->session_id();
    BOOST_TEST(status_of_post_with(server.url(), session_id) == 200);  // the session is alive
    session.client->close();
  }
  BOOST_TEST(status_of_post_with(server.url(), session_id) == 400);  // "No valid session ID provided"
}

BOOST_AUTO_TEST_SUITE_END()
