// The MCP client against the real reference server, @modelcontextprotocol/server-everything, over stdio.
#include "support/mcp_servers.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>

using namespace agent_run;
using namespace agent_run::test;
using namespace std::chrono_literals;

namespace {

std::vector<std::string> names_of(const std::vector<McpToolInfo>& tools) {
  std::vector<std::string> names;
  for (const McpToolInfo& tool : tools) names.push_back(tool.name);
  return names;
}

bool has(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::string all_text(const McpCallResult& result) {
  std::string text;
  for (const McpContent& block : result.content) text += block.text + "\n";
  return text;
}

McpClientSettings with_root(const std::filesystem::path& root) {
  McpClientSettings settings;
  settings.offer.root = root;
  return settings;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(everything_over_stdio)

BOOST_AUTO_TEST_CASE(initialize_agrees_on_the_newest_version_and_reads_the_server_info) {
  auto client = connect_stdio(everything_command());
  BOOST_TEST(client->server().protocol_version == "2025-11-25");
  BOOST_TEST(client->server().name == "mcp-servers/everything");
  BOOST_TEST(client->server().capabilities.find("tools") != nullptr);
  BOOST_TEST(!client->server().instructions.empty());
}

BOOST_AUTO_TEST_CASE(echo_returns_its_message_as_text) {
  auto client = connect_stdio(everything_command());
  McpCallResult result = client->call_tool("echo", Json::object().set("message", "hello from agent-run"), 30s);
  BOOST_TEST(!result.is_error);
  BOOST_REQUIRE(result.content.size() == 1u);
  BOOST_TEST(result.content[0].text == "Echo: hello from agent-run");
  BOOST_TEST(result.result_bytes > 0u);
}

BOOST_AUTO_TEST_CASE(tools_registered_after_initialized_are_listed_with_their_schemas) {
  TempFolder workspace;
  auto client = connect_stdio(everything_command(), with_root(workspace.path()));
  auto tools = client->list_tools();
  BOOST_REQUIRE_MESSAGE(tools.has_value(), (tools ? std::string() : tools.error().message));
  std::vector<std::string> names = names_of(*tools);
  BOOST_TEST(has(names, "echo"));
  BOOST_TEST(has(names, "get-sum"));
  // Registered only after notifications/initialized, for a client with roots and elicitation.
  BOOST_TEST(has(names, "get-roots-list"));
  BOOST_TEST(has(names, "trigger-elicitation-request"));
  BOOST_TEST(!has(names, "trigger-sampling-request"));  // agent-run offers no sampling
  auto echo = std::find_if(tools->begin(), tools->end(), [](const McpToolInfo& tool) { return tool.name == "echo"; });
  BOOST_TEST(echo->input_schema.find("properties")->find("message") != nullptr);
  BOOST_TEST(echo->annotations.find("readOnlyHint") != nullptr);
  BOOST_TEST(client->tools_generation() > 0u);  // the list_changed notifications were seen
}

BOOST_AUTO_TEST_CASE(the_tiny_image_comes_back_as_an_image_block) {
  auto client = connect_stdio(everything_command());
  McpCallResult result = client->call_tool("get-tiny-image", Json::object(), 30s);
  BOOST_TEST(!result.is_error);
  auto image = std::find_if(result.content.begin(), result.content.end(),
                            [](const McpContent& block) { return block.kind == McpContentKind::image; });
  BOOST_REQUIRE(image != result.content.end());
  BOOST_TEST(image->mime_type == "image/png");
  BOOST_TEST(image->data.rfind("iVBORw0KGgo", 0) == 0u);  // base64 of the PNG signature
  BOOST_TEST(!image->dropped);
}

BOOST_AUTO_TEST_CASE(structured_content_is_kept_beside_the_text) {
  auto client = connect_stdio(everything_command());
  McpCallResult result = client->call_tool("get-structured-content", Json::object().set("location", "New York"), 30s);
  BOOST_TEST(!result.is_error);
  BOOST_REQUIRE(result.structured.has_value());
  BOOST_TEST(result.structured->find("temperature") != nullptr);
  BOOST_TEST(all_text(result).find("temperature") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(resource_links_keep_their_uri_name_and_type) {
  auto client = connect_stdio(everything_command());
  McpCallResult result = client->call_tool("get-resource-links", Json::object().set("count", 2), 30s);
  BOOST_TEST(!result.is_error);
  std::vector<const McpContent*> links;
  for (const McpContent& block : result.content) {
    if (block.kind == McpContentKind::resource_link) links.push_back(&block);
  }
  BOOST_REQUIRE(links.size() == 2u);
  BOOST_TEST(links[0]->uri.rfind("demo://resource/", 0) == 0u);
  BOOST_TEST(links[0]->name == "Blob Resource 1");
  BOOST_TEST(links[1]->mime_type == "text/plain");
}

BOOST_AUTO_TEST_CASE(an_embedded_text_resource_brings_its_text_and_uri) {
  auto client = connect_stdio(everything_command());
  McpCallResult result =
      client->call_tool("get-resource-reference", Json::object().set("resourceType", "Text").set("resourceId", 2), 30s);
  BOOST_TEST(!result.is_error);
  auto resource = std::find_if(result.content.begin(), result.content.end(),
                               [](const McpContent& block) { return block.kind == McpContentKind::resource; });
  BOOST_REQUIRE(resource != result.content.end());
  BOOST_TEST(resource->uri.find("resource/dynamic/text/2") != std::string::npos);
  BOOST_TEST(!resource->text.empty());
}

BOOST_AUTO_TEST_CASE(a_long_running_tool_reports_progress_until_it_answers) {
  auto client = connect_stdio(everything_command());
  McpCallResult result =
      client->call_tool("trigger-long-running-operation", Json::object().set("duration", 0.5).set("steps", 5), 60s);
  BOOST_TEST(!result.is_error);
  BOOST_TEST(all_text(result).find("Long running operation completed") != std::string::npos);
  BOOST_TEST(result.progress_updates == 5);
}

BOOST_AUTO_TEST_CASE(an_unknown_tool_is_a_failed_result_the_model_can_read) {
  auto client = connect_stdio(everything_command());
  McpCallResult result = client->call_tool("no-such-tool", Json::object(), 30s);
  BOOST_TEST(result.is_error);
  BOOST_TEST(all_text(result).find("no-such-tool") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(bad_arguments_are_a_failed_result_naming_the_problem) {
  auto client = connect_stdio(everything_command());
  McpCallResult result = client->call_tool("get-sum", Json::object().set("a", "x").set("b", 3), 30s);
  BOOST_TEST(result.is_error);
  BOOST_TEST(all_text(result).find("Invalid arguments") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(roots_list_is_answered_with_the_workspace) {
  TempFolder workspace;
  auto client = connect_stdio(everything_command(), with_root(workspace.path()));
  McpCallResult result = client->call_tool("get-roots-list", Json::object(), 30s);
  BOOST_TEST(!result.is_error);
  BOOST_TEST(all_text(result).find("file://" + workspace.path().string()) != std::string::npos);
}

BOOST_AUTO_TEST_CASE(an_elicitation_is_answered_by_the_handler_and_recorded) {
  McpClientSettings settings;
  std::string asked;
  settings.offer.elicitation = [&](const ElicitationRequest& request) {
    asked = request.message;
    auto filled = fill_form(request.requested_schema, "Ada Lovelace");
    return ElicitationAnswer{ElicitationAction::accept, filled ? *filled : Json::object(), "rule 1", ""};
  };
  auto client = connect_stdio(everything_command(), settings);
  McpCallResult result = client->call_tool("trigger-elicitation-request", Json::object(), 30s);
  BOOST_TEST(!result.is_error);
  BOOST_TEST(all_text(result).find("Name: Ada Lovelace") != std::string::npos);
  BOOST_TEST(asked.find("Please provide inputs") != std::string::npos);
  McpServerLog log = client->log();
  BOOST_REQUIRE(log.elicitations.size() == 1u);
  BOOST_TEST(log.elicitations[0].answered_by == "rule 1");
  BOOST_TEST(to_string(log.elicitations[0].action) == std::string("accept"));
}

BOOST_AUTO_TEST_CASE(without_a_handler_an_elicitation_is_declined_for_want_of_a_human) {
  auto client = connect_stdio(everything_command());
  McpCallResult result = client->call_tool("trigger-elicitation-request", Json::object(), 30s);
  BOOST_TEST(all_text(result).find("decline") != std::string::npos);
  McpServerLog log = client->log();
  BOOST_REQUIRE(log.elicitations.size() == 1u);
  BOOST_TEST(to_string(log.elicitations[0].action) == std::string("decline"));
  BOOST_TEST(log.elicitations[0].reason.find("no human in the loop") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(logging_messages_are_kept_for_the_report) {
  auto client = connect_stdio(everything_command());
  McpCallResult result = client->call_tool("toggle-simulated-logging", Json::object(), 30s);
  BOOST_TEST(!result.is_error);
  BOOST_REQUIRE(eventually([&] { return client->log().message_count > 0; }));
  McpServerLog log = client->log();
  BOOST_TEST(!log.messages.front().level.empty());
  BOOST_TEST(log.messages.front().text.find("message") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(ping_is_answered) {
  auto client = connect_stdio(everything_command());
  auto pong = client->ping(30s);
  BOOST_TEST(pong.has_value());
}

BOOST_AUTO_TEST_CASE(close_ends_the_server_by_closing_its_input) {
  auto transport = std::make_unique<StdioTransport>(everything_command(), nullptr, nullptr);
  StdioTransport& stdio = *transport;
  auto client = McpClient::connect(std::move(transport), McpClientSettings{});
  BOOST_REQUIRE(client.has_value());
  (*client)->close();
  BOOST_TEST(stdio.facts().ending == "exited with code 0");  // it ended by itself, not by a signal
  BOOST_TEST((*client)->call_tool("echo", Json::object().set("message", "x"), 5s).is_error);
}

BOOST_AUTO_TEST_CASE(a_secret_in_a_result_is_redacted) {
  McpClientSettings settings;
  settings.secrets = {"s3cr3t-t0ken"};
  auto client = connect_stdio(everything_command(), settings);
  McpCallResult result = client->call_tool("echo", Json::object().set("message", "token s3cr3t-t0ken here"), 30s);
  BOOST_TEST(result.content.at(0).text == "Echo: token [redacted] here");
}

BOOST_AUTO_TEST_SUITE_END()
