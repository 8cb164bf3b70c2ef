// `agent-run mcp list|call`, the built binary against the real reference server.
#include "base/json.h"
#include "support/fixtures.h"
#include "support/mcp_servers.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;
using namespace agent_run::test;

namespace {

/// `agent-run ARGUMENTS`, keeping only what it printed on stdout (stderr goes to `err_file`).
CommandResult stdout_of(const std::vector<std::string>& arguments, const std::filesystem::path& cwd) {
  std::string command = shell_quote(test::agent_run_binary());
  for (const std::string& argument : arguments) command += " " + shell_quote(argument);
  return run_shell(command + " 2>/dev/null", cwd);
}

std::vector<std::string> with_everything(std::vector<std::string> arguments) {
  StdioCommand server = everything_command();
  arguments.push_back("--");
  arguments.insert(arguments.end(), server.argv.begin(), server.argv.end());
  return arguments;
}

/// `NAME: {command: node, args: [...]}`: server-everything as one `mcp_servers:` entry.
std::string everything_entry(const std::string& name) {
  StdioCommand server = everything_command();
  std::string args;
  for (std::size_t i = 1; i < server.argv.size(); ++i) args += (i > 1 ? ", " : "") + Json(server.argv[i]).dump();
  return "  " + name + ": {command: node, args: [" + args + "]}\n";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(mcp_command)

BOOST_AUTO_TEST_CASE(a_server_named_in_agent_run_yaml_is_reached_by_its_name) {
  TempFolder cwd;
  cwd.write("agent-run.yaml", "mcp_servers:\n" + everything_entry("everything"));
  cwd.write("elsewhere.yaml", "mcp_servers:\n" + everything_entry("other"));
  CommandResult here = stdout_of({"mcp", "call", "everything", "get-sum", R"({"a": 2, "b": 3})"}, cwd.path());
  BOOST_TEST(here.exit_code == 0);
  BOOST_TEST(here.output == "The sum of 2 and 3 is 5.\n");
  CommandResult named = stdout_of({"mcp", "call", "--config", "elsewhere.yaml", "other", "get-sum",
                                   R"({"a": 1, "b": 1})"},
                                  cwd.path());
  BOOST_TEST(named.exit_code == 0);
  BOOST_TEST(named.output == "The sum of 1 and 1 is 2.\n");
  CommandResult wrong = run_agent_run({"mcp", "list", "--config", "elsewhere.yaml", "othr"}, cwd.path());
  BOOST_TEST(wrong.exit_code == 2, wrong.output);
  BOOST_TEST(wrong.output.find("elsewhere.yaml has no MCP server 'othr' (did you mean 'other'?)") != std::string::npos,
             wrong.output);
}

BOOST_AUTO_TEST_CASE(a_server_named_in_a_task_file_is_reached_with_config) {
  TempFolder cwd;
  cwd.write("task.yaml", "prompt: p\nmcp_servers:\n" + everything_entry("fromtask"));
  CommandResult result =
      stdout_of({"mcp", "call", "--config", "task.yaml", "fromtask", "get-sum", R"({"a": 4, "b": 3})"}, cwd.path());
  BOOST_TEST(result.exit_code == 0);
  BOOST_TEST(result.output == "The sum of 4 and 3 is 7.\n");
}

BOOST_AUTO_TEST_CASE(call_offers_the_server_no_roots) {
  TempFolder cwd;
  // Its one tool answers with the capabilities agent-run sent at initialize.
  cwd.write("caps.py", R"(import json, sys
capabilities = None
for line in sys.stdin:
    message = json.loads(line)
    method, id = message.get("method"), message.get("id")
    if method == "initialize":
        capabilities = message["params"]["capabilities"]
        result = {"protocolVersion": message["params"]["protocolVersion"], "capabilities": {"tools": {}}}
    elif method == "tools/list":
        result = {"tools": [{"name": "caps", "inputSchema": {"type": "object"}}]}
    elif method == "tools/call":
        result = {"content": [{"type": "text", "text": json.dumps(sorted(capabilities))}]}
    elif id is None:
        continue
    else:
        result = {}
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": id, "result": result}) + "\n")
    sys.stdout.flush()
)");
  CommandResult result = stdout_of({"mcp", "call", "caps", "{}", "--", "/usr/bin/python3", "caps.py"}, cwd.path());
  BOOST_TEST(result.exit_code == 0, result.output);
  BOOST_TEST(result.output == "[\"elicitation\"]\n");
}

BOOST_AUTO_TEST_CASE(list_prints_every_tool_with_its_schema) {
  TempFolder cwd;
  CommandResult result = run_agent_run(with_everything({"mcp", "list"}), cwd.path());
  BOOST_TEST(result.exit_code == 0, result.output);
  BOOST_TEST(result.output.find("mcp-servers/everything") != std::string::npos, result.output);
  BOOST_TEST(result.output.find("\necho (Echo Tool)\n") != std::string::npos, result.output);
  BOOST_TEST(result.output.find("input schema: {") != std::string::npos, result.output);
  BOOST_TEST(result.output.find("mcp__NAME__T") != std::string::npos, result.output);
}

BOOST_AUTO_TEST_CASE(list_json_is_one_object_with_the_server_and_its_tools) {
  TempFolder cwd;
  CommandResult result = stdout_of(with_everything({"mcp", "list", "--json"}), cwd.path());
  BOOST_REQUIRE(result.exit_code == 0);
  auto json = parse_json(result.output);
  BOOST_REQUIRE_MESSAGE(json.has_value(), result.output);
  BOOST_TEST(json->find("server")->get_string("protocolVersion") == "2025-11-25");
  const Json::Array& tools = json->find("tools")->as_array();
  BOOST_TEST(std::any_of(tools.begin(), tools.end(), [](const Json& tool) {
    return tool.get_string("name") == "get-sum" && tool.find("inputSchema")->find("properties")->find("a");
  }));
}

BOOST_AUTO_TEST_CASE(call_prints_the_result_and_exits_0) {
  TempFolder cwd;
  CommandResult result = stdout_of(with_everything({"mcp", "call", "get-sum", R"({"a": 2, "b": 3})"}), cwd.path());
  BOOST_TEST(result.exit_code == 0);
  BOOST_TEST(result.output == "The sum of 2 and 3 is 5.\n");
}

BOOST_AUTO_TEST_CASE(a_tool_that_fails_exits_1_and_json_says_why) {
  TempFolder cwd;
  CommandResult result = stdout_of(with_everything({"mcp", "call", "get-sum", R"({"a": "x"})", "--json"}), cwd.path());
  BOOST_TEST(result.exit_code == 1);
  auto json = parse_json(result.output);
  BOOST_REQUIRE_MESSAGE(json.has_value(), result.output);
  BOOST_TEST(json->find("isError")->as_bool());
  BOOST_TEST(json->find("content")->as_array().at(0).get_string("text").find("Invalid arguments") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_url_reaches_a_streamable_http_server) {
  EverythingHttpServer server;
  TempFolder cwd;
  CommandResult result = stdout_of({"mcp", "call", server.url(), "echo", R"({"message": "over http"})"}, cwd.path());
  BOOST_TEST(result.exit_code == 0);
  BOOST_TEST(result.output == "Echo: over http\n");
}

BOOST_AUTO_TEST_CASE(a_server_that_cannot_start_exits_3_with_the_reason) {
  TempFolder cwd;
  CommandResult result = run_agent_run({"mcp", "list", "--", "no-such-mcp-server-xyz"}, cwd.path());
  BOOST_TEST(result.exit_code == 3);
  BOOST_TEST(result.output.find("cannot run 'no-such-mcp-server-xyz': not found on PATH") != std::string::npos,
             result.output);
}

BOOST_AUTO_TEST_CASE(a_bad_invocation_exits_2_and_says_what_is_missing) {
  TempFolder cwd;
  CommandResult no_action = run_agent_run({"mcp"}, cwd.path());
  BOOST_TEST(no_action.exit_code == 2);
  BOOST_TEST(no_action.output.find("mcp needs a subcommand: list or call") != std::string::npos, no_action.output);
  CommandResult no_tool = run_agent_run({"mcp", "call", "http://127.0.0.1:1/mcp"}, cwd.path());
  BOOST_TEST(no_tool.exit_code == 2);
  BOOST_TEST(no_tool.output.find("mcp call needs the name of a tool") != std::string::npos, no_tool.output);
  CommandResult bad_json = run_agent_run({"mcp", "call", "http://127.0.0.1:1/mcp", "echo", "[1]"}, cwd.path());
  BOOST_TEST(bad_json.exit_code == 2);
  BOOST_TEST(bad_json.output.find("must be a JSON object, got '[1]'") != std::string::npos, bad_json.output);
}

BOOST_AUTO_TEST_SUITE_END()
