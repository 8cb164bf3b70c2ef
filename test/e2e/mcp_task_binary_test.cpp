// A scripted task whose agent calls the tools of a real MCP server (server-everything over stdio),
// under a policy that allows one of them and denies another: the built binary, end to end.
#include "base/json.h"
#include "support/fixtures.h"
#include "support/mcp_servers.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>

using namespace agent_run;
using namespace agent_run::test;

namespace {

constexpr const char* k_policy = R"(version: 1
unmatched: deny
rules:
  - id: echo-and-sum
    allow: ["mcp__everything__echo", "mcp__everything__get-sum", "mcp__dies__boom"]
  - id: no-env
    deny: mcp__everything__get-env
    message: the server's environment is off limits
)";

/// The `mcp_servers:` entry that runs server-everything over stdio with node.
std::string everything_entry(const std::string& extra = "") {
  StdioCommand command = everything_command();
  std::string args;
  for (std::size_t i = 1; i < command.argv.size(); ++i) args += (i > 1 ? ", " : "") + Json(command.argv[i]).dump();
  return "  everything: {command: node, args: [" + args + "]" + extra + "}\n";
}

std::string mcp_task(const std::string& servers) {
  return "prompt: Use the server.\npolicy: ../policy.yaml\nmcp_servers:\n" + servers + R"(script:
  - call: {tool: mcp__everything__echo, input: {message: hello from the task}}
  - call: {tool: mcp__everything__get-env, input: {}}
  - call: {tool: mcp__everything__get-sum, input: {a: 2, b: 40}}
  - say: Done.
)";
}

struct Run {
  CommandResult result;
  Json attempt;
  std::string transcript;
  std::string junit;
};

Run run_task(const std::string& task) {
  TempFolder repo;
  TempFolder out;
  make_git_repository(repo.path(), {{"README", "mcp\n"}, {"policy.yaml", k_policy}, {"tasks/mcp.yaml", task}});
  Run run;
  run.result = run_agent_run({"tasks/mcp.yaml", "--out", out.path().string()}, repo.path());
  auto report = parse_json(out.read("report.json"));
  BOOST_REQUIRE_MESSAGE(report.has_value(), run.result.output);
  run.attempt = report->find("attempts")->as_array().at(0);
  run.transcript = out.read(run.attempt.get_string("transcript_path"));
  run.junit = out.read("junit.xml");
  CommandResult schema = run_shell(
      "/usr/bin/python3 " + shell_quote((source_root() / "test/fixtures/report/validate_json_schema.py").string()) +
          " " + shell_quote((source_root() / "reports/report.schema.json").string()) + " report.json",
      out.path());
  BOOST_TEST(schema.exit_code == 0, schema.output);
  return run;
}

const Json& call_named(const Json& attempt, const std::string& name) {
  for (const Json& call : attempt.find("tool_calls")->as_array()) {
    if (call.get_string("name") == name) return call;
  }
  BOOST_FAIL("no call of " + name);
  return attempt;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(mcp_task_binary)

BOOST_AUTO_TEST_CASE(the_agent_calls_an_allowed_mcp_tool_and_is_denied_another) {
  Run run = run_task(mcp_task(everything_entry()));
  BOOST_TEST_INFO(run.result.output);
  BOOST_TEST(run.result.exit_code == 0);
  BOOST_TEST(run.attempt.get_string("outcome") == "passed");

  const Json& echo = call_named(run.attempt, "mcp__everything__echo");
  BOOST_TEST(echo.get_string("decision") == "allowed");
  BOOST_TEST(echo.get_string("rule_id") == "echo-and-sum");
  BOOST_TEST(echo.find("mcp")->get_string("server") == "everything");
  BOOST_TEST(echo.find("mcp")->get_string("tool") == "echo");
  BOOST_TEST(echo.find("result_bytes")->as_int() ==
             static_cast<long long>(std::string("Echo: hello from the task").size()));
  BOOST_TEST(run.transcript.find("Echo: hello from the task") != std::string::npos);

  const Json& env = call_named(run.attempt, "mcp__everything__get-env");
  BOOST_TEST(env.get_string("decision") == "denied");
  BOOST_TEST(env.get_string("rule_id") == "no-env");
  BOOST_TEST(run.transcript.find("the server's environment is off limits") != std::string::npos);
  BOOST_TEST(run.transcript.find("\"PATH\"") == std::string::npos);  // get-env never ran

  BOOST_TEST(run.transcript.find("The sum of 2 and 40 is 42.") != std::string::npos);

  const Json& server = run.attempt.find("mcp_servers")->as_array().at(0);
  BOOST_TEST(server.get_string("name") == "everything");
  BOOST_TEST(server.get_string("status") == "connected");
  BOOST_TEST(server.get_string("error") == "");  // a healthy server's closing is no error
  BOOST_TEST(run.junit.find("mcp.unavailable") == std::string::npos);
  BOOST_TEST(server.get_string("transport") == "stdio");
  BOOST_TEST(server.get_string("server_name") == "mcp-servers/everything");
  BOOST_TEST(server.get_string("protocol_version") == "2025-11-25");
  // Closing its stdin ends it; server-everything, given roots, waits on timers and is ended by SIGTERM
  // (inside the sandbox, the entry's shell reports that as exit code 143).
  std::string ending = server.get_string("ending");
  BOOST_TEST((ending == "exited with code 0" || ending == "was killed by signal 15 (Terminated)" ||
              ending == "exited with code 143"),
             ending);
  bool offered = false;
  for (const Json& tool : server.find("tools")->as_array()) offered |= tool.as_string() == "mcp__everything__echo";
  BOOST_TEST(offered);
}

/// The names of the tools a server's record says were offered to the model.
std::vector<std::string> offered_tools(const Json& attempt) {
  std::vector<std::string> names;
  for (const Json& tool : attempt.find("mcp_servers")->as_array().at(0).find("tools")->as_array()) {
    names.push_back(tool.as_string());
  }
  return names;
}

BOOST_AUTO_TEST_CASE(a_pattern_in_the_task_s_tools_offers_the_server_s_matching_tools_only) {
  Run run = run_task("prompt: Use the server.\npolicy: ../policy.yaml\n"
                     "tools: [read_file, \"mcp__everything__get-*\"]\nmcp_servers:\n" +
                     everything_entry() +
                     "script:\n  - call: {tool: mcp__everything__get-sum, input: {a: 2, b: 40}}\n  - say: Done.\n");
  BOOST_TEST_INFO(run.result.output);
  BOOST_TEST(run.result.exit_code == 0);
  BOOST_TEST(run.transcript.find("The sum of 2 and 40 is 42.") != std::string::npos);
  std::vector<std::string> offered = offered_tools(run.attempt);
  BOOST_TEST(std::count(offered.begin(), offered.end(), "mcp__everything__get-sum") == 1);
  BOOST_TEST(std::count(offered.begin(), offered.end(), "mcp__everything__echo") == 0);
}

BOOST_AUTO_TEST_CASE(a_server_s_name_alone_in_the_task_s_tools_offers_all_its_tools) {
  Run run = run_task("prompt: Use the server.\npolicy: ../policy.yaml\n"
                     "tools: [read_file, mcp__everything]\nmcp_servers:\n" +
                     everything_entry() + "script:\n  - call: {tool: mcp__everything__echo, input: {message: hi}}\n"
                     "  - say: Done.\n");
  BOOST_TEST_INFO(run.result.output);
  BOOST_TEST(run.result.exit_code == 0);
  BOOST_TEST(run.transcript.find("Echo: hi") != std::string::npos);
  std::vector<std::string> offered = offered_tools(run.attempt);
  BOOST_TEST(std::count(offered.begin(), offered.end(), "mcp__everything__get-sum") == 1);
  BOOST_TEST(std::count(offered.begin(), offered.end(), "mcp__everything__echo") == 1);
}

BOOST_AUTO_TEST_CASE(a_server_that_cannot_start_leaves_its_tools_out_and_says_why) {
  Run run = run_task(mcp_task("  everything: {command: no-such-mcp-server-xyz}\n"));
  BOOST_TEST(run.attempt.get_string("outcome") == "passed");  // the attempt goes on without the server
  const Json& server = run.attempt.find("mcp_servers")->as_array().at(0);
  BOOST_TEST(server.get_string("status") == "failed");
  BOOST_TEST(server.get_string("error").find("not found on PATH") != std::string::npos, server.get_string("error"));
  BOOST_TEST(run.transcript.find("There is no tool named 'mcp__everything__echo'") != std::string::npos);
  // Said everywhere a person or the model looks: the console, the attempt's warnings, JUnit, the system prompt.
  BOOST_TEST(run.result.output.find("warning: MCP server 'everything'") != std::string::npos, run.result.output);
  const Json::Array& warnings = run.attempt.find("warnings")->as_array();
  BOOST_TEST(std::any_of(warnings.begin(), warnings.end(), [](const Json& warning) {
    return warning.as_string().find("MCP server 'everything'") != std::string::npos &&
           warning.as_string().find("its tools (mcp__everything__*) are not offered") != std::string::npos;
  }));
  BOOST_TEST(run.junit.find("<property name=\"mcp.unavailable\" value=\"everything (failed)\"/>") != std::string::npos,
             run.junit);
  BOOST_TEST(run.transcript.find("- unavailable: MCP server 'everything'") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_server_that_dies_mid_attempt_is_recorded_as_crashed) {
  TempFolder scripts;
  // Answers initialize and tools/list, then exits on the first tools/call without answering.
  const std::filesystem::path server = scripts.write("dies.py", R"(import json, sys
for line in sys.stdin:
    message = json.loads(line)
    method, id = message.get("method"), message.get("id")
    if method == "initialize":
        result = {"protocolVersion": message["params"]["protocolVersion"], "capabilities": {"tools": {}},
                  "serverInfo": {"name": "dies", "version": "1"}}
    elif method == "tools/list":
        result = {"tools": [{"name": "boom", "inputSchema": {"type": "object"}}]}
    elif method == "tools/call":
        sys.stderr.write("dying on purpose\n")
        sys.exit(7)
    else:
        continue
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": id, "result": result}) + "\n")
    sys.stdout.flush()
)");
  Run run = run_task("prompt: Use the server.\npolicy: ../policy.yaml\nmcp_servers:\n  dies: {command: /usr/bin/python3, args: [" +
                     Json(server.string()).dump() + "], sandbox: off}\n" +
                     "script:\n  - call: {tool: mcp__dies__boom, input: {}}\n  - say: Done.\n");
  BOOST_TEST_INFO(run.result.output);
  const Json& record = run.attempt.find("mcp_servers")->as_array().at(0);
  BOOST_TEST(record.get_string("status") == "crashed");
  BOOST_TEST(record.get_string("error").find("ended during the attempt") != std::string::npos, record.get_string("error"));
  BOOST_TEST(record.get_string("error").find("dying on purpose") != std::string::npos, record.get_string("error"));
  BOOST_TEST(run.result.output.find("warning: MCP server 'dies' ended during the attempt") != std::string::npos);
  BOOST_TEST(run.junit.find("value=\"dies (crashed)\"") != std::string::npos, run.junit);
}

BOOST_AUTO_TEST_CASE(a_required_server_that_cannot_start_makes_the_attempt_an_error) {
  Run run = run_task(mcp_task("  everything: {command: no-such-mcp-server-xyz, required: true}\n"));
  BOOST_TEST(run.result.exit_code == 3);
  BOOST_TEST(run.attempt.get_string("outcome") == "error");
  BOOST_TEST(run.attempt.get_string("outcome_type") == "mcp.unavailable");
  BOOST_TEST(run.attempt.get_string("message").find("required MCP server 'everything'") != std::string::npos,
             run.attempt.get_string("message"));
  BOOST_TEST(run.attempt.find("tool_calls")->as_array().empty());
}

BOOST_AUTO_TEST_SUITE_END()
