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
    allow: ["mcp__everything__echo", "mcp__everything__get-sum", "mcp__dies__boom", "mcp__grower", "mcp__odd",
            "mcp__quits"]
  - id: linked-resources
    allow: ["mcp__everything__get-resource-links", "mcp__everything__read_resource"]
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
  std::string summary;  // summary.md
  std::string html;     // report.html
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
  run.summary = out.read("summary.md");
  run.html = out.read("report.html");
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

/// A python3 MCP server of the tests' own: it offers `tools` (a Python list literal) and runs `on_call`
/// (Python statements that may use `name`, `tools`, `send`, `changed`, and set `text`) for a tools/call.
std::string python_server(const std::string& tools, const std::string& on_call) {
  return "import json, sys\ntools = " + tools + R"(
def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()
changed = {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
for line in sys.stdin:
    message = json.loads(line)
    method, id = message.get("method"), message.get("id")
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": id, "result": {"protocolVersion": message["params"]["protocolVersion"],
              "capabilities": {"tools": {"listChanged": True}}, "serverInfo": {"name": "mine", "version": "1"}}})
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": id, "result": {"tools": tools}})
    elif method == "tools/call":
        name = message["params"]["name"]
        text = name + " ran"
)" + on_call + R"(
        send({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": text}]}})
    elif id is not None:
        send({"jsonrpc": "2.0", "id": id, "result": {}})
)";
}

/// `NAME: {command: python3, args: [SCRIPT], sandbox: off}`, the script written into `folder`.
std::string python_entry(TempFolder& folder, const std::string& name, const std::string& script) {
  const std::filesystem::path path = folder.write(name + ".py", script);
  return "  " + name + ": {command: /usr/bin/python3, args: [" + Json(path.string()).dump() + "], sandbox: off}\n";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(mcp_task_binary)

BOOST_AUTO_TEST_CASE(a_tool_a_server_adds_and_announces_mid_attempt_is_offered_from_the_next_request) {
  TempFolder scripts;
  // `grow` adds `fresh` and says so (notifications/tools/list_changed) before it answers.
  const std::string server = python_server("[{'name': 'grow', 'inputSchema': {'type': 'object'}}]",
                                           "        if name == 'grow':\n"
                                           "            tools.append({'name': 'fresh', 'inputSchema': {'type': 'object'}})\n"
                                           "            send(changed)\n");
  Run run = run_task("prompt: Use the server.\npolicy: ../policy.yaml\nmcp_servers:\n" +
                     python_entry(scripts, "grower", server) +
                     "script:\n  - call: {tool: mcp__grower__grow, input: {}}\n"
                     "  - call: {tool: mcp__grower__fresh, input: {}}\n  - say: Done.\n");
  BOOST_TEST_INFO(run.result.output);
  BOOST_TEST(run.result.exit_code == 0);
  BOOST_TEST(run.transcript.find("There is no tool named") == std::string::npos, run.transcript);
  BOOST_TEST(run.transcript.find("fresh ran") != std::string::npos);
  // The transcript says what changed, before the request that offered it first.
  const std::size_t changed = run.transcript.find("\"type\":\"tools_changed\"");
  BOOST_REQUIRE(changed != std::string::npos);
  const std::string line = run.transcript.substr(changed, run.transcript.find('\n', changed) - changed);
  BOOST_TEST(line.find("\"added\":[\"mcp__grower__fresh\"]") != std::string::npos, line);
  BOOST_TEST(line.find("\"turn\":2") != std::string::npos, line);
  BOOST_TEST(line.find("\"source\":\"MCP server 'grower'\"") != std::string::npos, line);
  std::vector<std::string> offered;
  for (const Json& tool : run.attempt.find("mcp_servers")->as_array().at(0).find("tools")->as_array()) {
    offered.push_back(tool.as_string());
  }
  BOOST_TEST((offered == std::vector<std::string>{"mcp__grower__grow", "mcp__grower__fresh"}));
}

BOOST_AUTO_TEST_CASE(a_tool_without_an_object_schema_is_left_out_alone_with_a_warning_naming_it) {
  TempFolder scripts;
  const std::string server = python_server("[{'name': 'bad'}, {'name': 'stringy', 'inputSchema': {'type': 'string'}}, "
                                           "{'name': 'good', 'inputSchema': {'type': 'object'}}]",
                                           "");
  Run run = run_task("prompt: Use the server.\npolicy: ../policy.yaml\nmcp_servers:\n" +
                     python_entry(scripts, "odd", server) +
                     "script:\n  - call: {tool: mcp__odd__good, input: {}}\n  - say: Done.\n");
  BOOST_TEST_INFO(run.result.output);
  BOOST_TEST(run.result.exit_code == 0);
  const Json& record = run.attempt.find("mcp_servers")->as_array().at(0);
  BOOST_TEST(record.get_string("status") == "connected");
  BOOST_TEST(record.find("tools")->as_array().size() == 1u);
  BOOST_TEST(run.transcript.find("good ran") != std::string::npos);
  // The model never sees the string schema: the prompt's tool list has only the good tool.
  BOOST_TEST(run.transcript.find("mcp__odd__stringy") == std::string::npos);
  const Json::Array& warnings = run.attempt.find("warnings")->as_array();
  auto warned = [&](const std::string& text) {
    return std::any_of(warnings.begin(), warnings.end(),
                       [&](const Json& w) { return w.as_string().find(text) != std::string::npos; });
  };
  BOOST_TEST(warned("MCP server 'odd': its tool 'bad' is not offered: it has no inputSchema object"));
  BOOST_TEST(warned("MCP server 'odd': its tool 'stringy' is not offered: its inputSchema's type is \"string\""));
}

BOOST_AUTO_TEST_CASE(a_server_that_exits_cleanly_mid_attempt_is_stopped_and_its_tools_say_it_is_unavailable) {
  TempFolder scripts;
  const std::string server = python_server("[{'name': 'bye', 'inputSchema': {'type': 'object'}}]",
                                           "        sys.exit(0)\n");
  Run run = run_task("prompt: Use the server.\npolicy: ../policy.yaml\nmcp_servers:\n" +
                     python_entry(scripts, "quits", server) +
                     "script:\n  - call: {tool: mcp__quits__bye, input: {}}\n"
                     "  - call: {tool: mcp__quits__bye, input: {}}\n  - say: Done.\n");
  BOOST_TEST_INFO(run.result.output);
  const Json& record = run.attempt.find("mcp_servers")->as_array().at(0);
  BOOST_TEST(record.get_string("status") == "stopped");
  BOOST_TEST(record.get_string("error").find("ended during the attempt: it exited with code 0") != std::string::npos,
             record.get_string("error"));
  BOOST_TEST(run.transcript.find("The MCP server 'quits' is unavailable: it ended during the attempt") !=
                 std::string::npos,
             run.transcript);
  const Json::Array& warnings = run.attempt.find("warnings")->as_array();
  BOOST_TEST(std::any_of(warnings.begin(), warnings.end(), [](const Json& w) {
    return w.as_string().find("MCP server 'quits' ended during the attempt") != std::string::npos;
  }));
  BOOST_TEST(run.summary.find("| quits | stopped |") != std::string::npos, run.summary);
  BOOST_TEST(run.html.find("<h3>MCP servers</h3>") != std::string::npos);
  BOOST_TEST(run.html.find("quits") != std::string::npos);
}

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

// Issue 30 item 7: a server that offers resources gets mcp__SERVER__list_resources and
// mcp__SERVER__read_resource, decided by the policy like its other tools; a resource link a tool
// returned is read through them.
BOOST_AUTO_TEST_CASE(a_resource_link_a_tool_returned_is_read_through_the_server_s_read_resource_tool) {
  Run run = run_task("prompt: Use the server.\npolicy: ../policy.yaml\nmcp_servers:\n" + everything_entry() +
                     "script:\n  - call: {tool: mcp__everything__get-resource-links, input: {count: 2}}\n"
                     "  - call: {tool: mcp__everything__read_resource, input: {uri: \"demo://resource/dynamic/text/2\"}}\n"
                     "  - call: {tool: mcp__everything__list_resources, input: {}}\n  - say: Done.\n");
  BOOST_TEST_INFO(run.result.output);
  BOOST_TEST(run.result.exit_code == 0);
  std::vector<std::string> offered = offered_tools(run.attempt);
  BOOST_TEST(std::count(offered.begin(), offered.end(), "mcp__everything__list_resources") == 1);
  BOOST_TEST(std::count(offered.begin(), offered.end(), "mcp__everything__read_resource") == 1);
  BOOST_TEST(run.transcript.find("Read a linked resource with mcp__everything__read_resource") != std::string::npos,
             run.transcript);
  const Json& read = call_named(run.attempt, "mcp__everything__read_resource");
  BOOST_TEST(read.get_string("decision") == "allowed");
  BOOST_TEST(read.get_string("rule_id") == "linked-resources");
  BOOST_TEST(read.find("mcp")->get_string("server") == "everything");
  BOOST_TEST(read.find("mcp")->get_string("tool") == "read_resource");
  BOOST_TEST(read.get_string("input_summary") == "demo://resource/dynamic/text/2");
  BOOST_TEST(run.transcript.find("Resource 2: This is a plaintext resource") != std::string::npos, run.transcript);
  // No rule allows listing: denied by default, as any MCP tool without an allow rule.
  const Json& list = call_named(run.attempt, "mcp__everything__list_resources");
  BOOST_TEST(list.get_string("decision") == "denied");
  BOOST_TEST(run.transcript.find("demo://resource/static/document/") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_server_without_resources_gets_no_resource_tools) {
  TempFolder scripts;
  const std::string server = python_server("[{'name': 'good', 'inputSchema': {'type': 'object'}}]", "");
  Run run = run_task("prompt: Use the server.\npolicy: ../policy.yaml\nmcp_servers:\n" +
                     python_entry(scripts, "odd", server) +
                     "script:\n  - call: {tool: mcp__odd__read_resource, input: {uri: \"odd://x\"}}\n  - say: Done.\n");
  BOOST_TEST_INFO(run.result.output);
  BOOST_TEST(run.result.exit_code == 0);
  BOOST_TEST((offered_tools(run.attempt) == std::vector<std::string>{"mcp__odd__good"}));
  BOOST_TEST(run.transcript.find("There is no tool named 'mcp__odd__read_resource'") != std::string::npos,
             run.transcript);
}

BOOST_AUTO_TEST_CASE(a_server_that_cannot_start_leaves_its_tools_out_and_says_why) {
  Run run = run_task(mcp_task("  everything: {command: no-such-mcp-server-xyz}\n"));
  BOOST_TEST(run.attempt.get_string("outcome") == "passed");  // the attempt goes on without the server
  const Json& server = run.attempt.find("mcp_servers")->as_array().at(0);
  BOOST_TEST(server.get_string("status") == "failed");
  BOOST_TEST(server.get_string("error").find("not found on PATH") != std::string::npos, server.get_string("error"));
  // The model's error for its tool says the server is unavailable, and why.
  BOOST_TEST(run.transcript.find("The tool 'mcp__everything__echo' is unavailable: MCP server 'everything'") !=
                 std::string::npos,
             run.transcript);
  BOOST_TEST(run.transcript.find("There is no tool named") == std::string::npos);
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
  BOOST_TEST(run.summary.find("### MCP servers unavailable") != std::string::npos, run.summary);
  BOOST_TEST(run.summary.find("| everything | failed |") != std::string::npos, run.summary);
  BOOST_TEST(run.html.find("<h3>MCP servers</h3>") != std::string::npos);
  BOOST_TEST(run.html.find("not found on PATH") != std::string::npos);
}

// Issue 30 item 8: the usual `npx -y PKG` entry inside the default sandbox (no network, an empty
// HOME without npm's cache) sat until its startup timeout with "Terminated"; it fails at once with why
// and what to do. The same package installed once outside (here, the suite's own copy) runs inside.
BOOST_AUTO_TEST_CASE(an_npx_server_in_a_sandbox_without_network_fails_at_once_saying_why_and_what_to_do) {
  Run run = run_task(mcp_task(
      "  everything: {command: npx, args: [-y, \"@modelcontextprotocol/server-everything\"], required: true}\n"));
  BOOST_TEST_INFO(run.result.output);
  BOOST_TEST(run.attempt.get_string("outcome_type") == "mcp.unavailable");
  const Json& server = run.attempt.find("mcp_servers")->as_array().at(0);
  BOOST_TEST(server.get_string("status") == "failed");
  const std::string error = server.get_string("error");
  BOOST_TEST(error.find("`npx` fetches @modelcontextprotocol/server-everything from the network when it starts") !=
                 std::string::npos,
             error);
  BOOST_TEST(error.find("npm install --prefix DIR @modelcontextprotocol/server-everything") != std::string::npos, error);
  BOOST_TEST(run.result.output.find("`npx` fetches") != std::string::npos);
  // The way the docs give: the package installed outside, its program as the command, sandboxed.
  Run installed = run_task(mcp_task(everything_entry()));
  BOOST_TEST(installed.attempt.find("mcp_servers")->as_array().at(0).get_string("status") == "connected");
  BOOST_TEST(installed.attempt.find("mcp_servers")->as_array().at(0).find("sandboxed")->as_bool());
  BOOST_TEST(installed.transcript.find("Echo: hello from the task") != std::string::npos);
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
  BOOST_TEST(run.summary.find("| dies | crashed |") != std::string::npos, run.summary);
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
