// mcp__SERVER__list_resources and mcp__SERVER__read_resource, as the agent loop calls them: against
// server-everything over stdio, and a python3 server of the test's own with a long paged list.
#include "tools/mcp_resource_tools.h"
#include "support/mcp_servers.h"
#include "tools/mcp_tool.h"
#include "tools_fixture.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;
using namespace agent_run::test;

namespace {

/// Lists 12 resources, one a page (cursors "1" to "11"), and reads any URI as its own text.
constexpr const char* k_paged_server = R"(import json, sys
def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()
for line in sys.stdin:
    message = json.loads(line)
    method, id, params = message.get("method"), message.get("id"), message.get("params") or {}
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": id, "result": {"protocolVersion": params["protocolVersion"],
              "capabilities": {"tools": {}, "resources": {}}, "serverInfo": {"name": "paged", "version": "1"}}})
    elif method == "resources/list":
        page = int(params.get("cursor", "0"))
        result = {"resources": [{"uri": "paged://r%d" % page, "name": "r%d" % page}]}
        if page < 11:
            result["nextCursor"] = str(page + 1)
        send({"jsonrpc": "2.0", "id": id, "result": result})
    elif method == "resources/read":
        send({"jsonrpc": "2.0", "id": id, "result": {"contents": [{"uri": params["uri"], "text": "read " + params["uri"]}]}})
    elif id is not None:
        send({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "Method not found"}})
)";

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

BOOST_FIXTURE_TEST_SUITE(resource_tools, ToolsFixture)

BOOST_AUTO_TEST_CASE(the_pair_is_named_for_the_server_and_reads_need_a_uri) {
  auto client = connect_stdio(everything_command());
  auto pair = mcp_resource_tools("everything", *client);
  BOOST_REQUIRE(pair.size() == 2u);
  BOOST_TEST(pair[0]->schema().name == "mcp__everything__list_resources");
  BOOST_TEST(pair[1]->schema().name == "mcp__everything__read_resource");
  BOOST_TEST(pair[1]->schema().input_schema.find("required")->dump() == "[\"uri\"]");
  ToolOutput output = pair[1]->run(Json::object(), scope, session, timeout);
  BOOST_TEST(output.is_error);
  BOOST_TEST(has(output.content, "needs the resource's URI"), output.content);
}

BOOST_AUTO_TEST_CASE(list_resources_shows_everything_s_documents_and_templates_and_how_to_read_them) {
  auto client = connect_stdio(everything_command());
  ToolOutput output = McpListResourcesTool("everything", *client).run(Json::object(), scope, session, timeout);
  BOOST_TEST(!output.is_error, output.content);
  BOOST_TEST(has(output.content, "The MCP server 'everything' lists "), output.content);
  BOOST_TEST(has(output.content, "- demo://resource/static/document/instructions.md: instructions.md (text/markdown)"),
             output.content);
  BOOST_TEST(has(output.content, "Resource templates"), output.content);
  BOOST_TEST(has(output.content, "- demo://resource/dynamic/text/{resourceId}"), output.content);
  BOOST_TEST(has(output.content, "Read one with mcp__everything__read_resource"), output.content);
}

BOOST_AUTO_TEST_CASE(a_resource_link_in_a_tool_result_names_the_reader_and_reads_through_it) {
  auto client = connect_stdio(everything_command());
  auto links = *client->list_tools();
  auto tool =
      std::find_if(links.begin(), links.end(), [](const McpToolInfo& t) { return t.name == "get-resource-links"; });
  BOOST_REQUIRE(tool != links.end());
  McpTool linker("everything", *tool, *client, McpTool::ResourceReader::offered);
  ToolOutput linked = linker.run(Json::object().set("count", 2), scope, session, timeout);
  BOOST_TEST(has(linked.content, "<demo://resource/dynamic/text/2>"), linked.content);
  BOOST_TEST(has(linked.content, "Read a linked resource with mcp__everything__read_resource"), linked.content);
  ToolOutput read = McpReadResourceTool("everything", *client)
                        .run(Json::object().set("uri", "demo://resource/dynamic/text/2"), scope, session, timeout);
  BOOST_TEST(!read.is_error, read.content);
  BOOST_TEST(
      has(read.content, "[resource demo://resource/dynamic/text/2 (text/plain)]\nResource 2: This is a plaintext"),
      read.content);
  // A tool of a server whose resources are not offered says nothing of a reader.
  McpTool alone("everything", *tool, *client, McpTool::ResourceReader::none);
  BOOST_TEST(!has(alone.run(Json::object().set("count", 1), scope, session, timeout).content, "read_resource"));
}

BOOST_AUTO_TEST_CASE(an_unknown_uri_is_a_failed_read_the_model_can_read) {
  auto client = connect_stdio(everything_command());
  ToolOutput read =
      McpReadResourceTool("everything", *client).run(Json::object().set("uri", "demo://nope"), scope, session, timeout);
  BOOST_TEST(read.is_error);
  BOOST_TEST(has(read.content, "the MCP call failed: the MCP server answered resources/read with"), read.content);
}

BOOST_AUTO_TEST_CASE(a_long_list_stops_at_ten_pages_and_hands_the_model_a_cursor_to_go_on) {
  auto client = connect_stdio(python_command(folder.write("paged.py", k_paged_server)));
  McpListResourcesTool list("paged", *client);
  ToolOutput first = list.run(Json::object(), scope, session, timeout);
  BOOST_TEST(has(first.content, "lists 10 resources:"), first.content);
  BOOST_TEST(has(first.content, "- paged://r9: r9\n"), first.content);
  BOOST_TEST(!has(first.content, "paged://r10"), first.content);
  BOOST_TEST(has(first.content, "call mcp__paged__list_resources with {\"cursor\":\"10\"}"), first.content);
  ToolOutput rest = list.run(Json::object().set("cursor", "10"), scope, session, timeout);
  BOOST_TEST(has(rest.content, "lists 2 resources from the cursor given:\n- paged://r10: r10\n- paged://r11: r11\n"),
             rest.content);
  BOOST_TEST(!has(rest.content, "There are more"), rest.content);
}

BOOST_AUTO_TEST_SUITE_END()
