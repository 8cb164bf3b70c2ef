// The MCP client against the real @modelcontextprotocol/server-filesystem, confined to a folder.
#include "support/mcp_servers.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>

using namespace agent_run;
using namespace agent_run::test;
using namespace std::chrono_literals;

namespace {

std::string all_text(const McpCallResult& result) {
  std::string text;
  for (const McpContent& block : result.content) text += block.text + "\n";
  return text;
}

/// A workspace with one file, and a client of server-filesystem confined to it.
struct ConfinedServer {
  ConfinedServer() {
    workspace.write("notes/a.txt", "hello world\n");
    client = connect_stdio(filesystem_command(workspace.path()));
  }
  TempFolder workspace;
  std::unique_ptr<McpClient> client;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(filesystem_server)

BOOST_AUTO_TEST_CASE(it_offers_its_file_tools_with_output_schemas) {
  ConfinedServer server;
  auto tools = server.client->list_tools();
  BOOST_REQUIRE(tools.has_value());
  auto read =
      std::find_if(tools->begin(), tools->end(), [](const McpToolInfo& tool) { return tool.name == "read_text_file"; });
  BOOST_REQUIRE(read != tools->end());
  BOOST_TEST(!read->output_schema.is_null());
  BOOST_TEST(read->input_schema.find("properties")->find("path") != nullptr);
}

BOOST_AUTO_TEST_CASE(a_file_inside_the_folder_is_read) {
  ConfinedServer server;
  auto path = (server.workspace.path() / "notes/a.txt").string();
  McpCallResult result = server.client->call_tool("read_text_file", Json::object().set("path", path), 30s);
  BOOST_TEST(!result.is_error);
  BOOST_TEST(all_text(result) == "hello world\n\n");
  BOOST_REQUIRE(result.structured.has_value());
  BOOST_TEST(result.structured->get_string("content") == "hello world\n");
}

BOOST_AUTO_TEST_CASE(a_path_outside_the_folder_is_a_failed_result_passed_to_the_model) {
  ConfinedServer server;
  McpCallResult result = server.client->call_tool("read_text_file", Json::object().set("path", "/etc/passwd"), 30s);
  BOOST_TEST(result.is_error);
  BOOST_TEST(result.error.empty());  // the tool answered; the call itself did not fail
  BOOST_TEST(all_text(result).find("Access denied") != std::string::npos);
  BOOST_TEST(all_text(result).find("root:") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(with_roots_offered_the_workspace_is_its_allowed_folder) {
  TempFolder workspace;
  workspace.write("b.txt", "from the root\n");
  TempFolder elsewhere;  // the folder on its command line is replaced by the roots the client gives
  McpClientSettings settings;
  settings.offer.root = workspace.path();
  auto client = connect_stdio(filesystem_command(elsewhere.path()), settings);
  // The server applies the roots asynchronously after tools/list; it says so in list_allowed_directories.
  BOOST_REQUIRE(client->list_tools().has_value());
  BOOST_TEST(eventually([&] {
    McpCallResult allowed = client->call_tool("list_allowed_directories", Json::object(), 30s);
    return all_text(allowed).find(workspace.path().string()) != std::string::npos;
  }));
  auto path = (workspace.path() / "b.txt").string();
  McpCallResult result = client->call_tool("read_text_file", Json::object().set("path", path), 30s);
  BOOST_TEST(all_text(result).find("from the root") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
