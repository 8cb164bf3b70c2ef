// `agent-run validate --mcp`: the built binary starts the task's real MCP server (server-everything
// from npm) and checks the script's calls of its tools against the tools it lists and their schemas.
#include "base/json.h"
#include "support/fixtures.h"
#include "support/mcp_servers.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;
using namespace agent_run::test;

namespace {

constexpr const char* k_policy = "version: 1\nunmatched: deny\nrules:\n  - id: mcp\n    allow: mcp__everything\n";

/// A task over server-everything whose script holds `calls` (one `- call:` line each, from line 8).
std::string task_with(const std::string& calls) {
  StdioCommand command = everything_command();
  std::string args;
  for (std::size_t i = 1; i < command.argv.size(); ++i) args += (i > 1 ? ", " : "") + Json(command.argv[i]).dump();
  return "prompt: Use the server.\npolicy: ../policy.yaml\nchecks:\n  - run: \"true\"\nmcp_servers:\n"
         "  everything: {command: node, args: [" +
         args + "]}\nscript:\n" + calls + "  - say: Done.\n";
}

CommandResult validate(const std::string& task, const std::vector<std::string>& options) {
  TempFolder repo;
  make_git_repository(repo.path(), {{"README", "mcp\n"}, {"policy.yaml", k_policy}, {"tasks/mcp.yaml", task}});
  std::vector<std::string> arguments = {"validate", "tasks/mcp.yaml"};
  arguments.insert(arguments.end(), options.begin(), options.end());
  return run_agent_run(arguments, repo.path());
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

BOOST_AUTO_TEST_SUITE(validate_mcp_binary)

BOOST_AUTO_TEST_CASE(calls_that_fit_the_live_servers_schemas_pass) {
  CommandResult result = validate(task_with("  - call: {tool: mcp__everything__echo, input: {message: hi}}\n"
                                            "  - call: {tool: mcp__everything__get-sum, input: {a: 2, b: 3}}\n"),
                                  {"--mcp"});
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 0);
  BOOST_TEST(contains(result.output, "tasks/mcp.yaml: valid task 'mcp'"));
  BOOST_TEST(!contains(result.output, "is not checked"));  // --mcp did check them
}

BOOST_AUTO_TEST_CASE(an_unknown_tool_a_missing_key_and_a_wrong_type_are_each_reported_at_their_position) {
  const std::string task = task_with("  - call: {tool: mcp__everything__echo, input: {message: fine}}\n"
                                     "  - call: {tool: mcp__everything__ecoh, input: {message: typo}}\n"
                                     "  - call: {tool: mcp__everything__echo, input: {msg: wrong key}}\n"
                                     "  - call: {tool: mcp__everything__get-sum, input: {a: two, b: 3}}\n");
  // Without --mcp, nothing starts: the calls' inputs are only said to be unchecked.
  CommandResult offline = validate(task, {});
  BOOST_TEST_INFO(offline.output);
  BOOST_TEST(offline.exit_code == 0);
  BOOST_TEST(contains(offline.output, "warning: the input of 'script[0].call' (mcp__everything__echo) and 3 more "
                                      "scripted MCP calls are not checked"));

  CommandResult live = validate(task, {"--mcp"});
  BOOST_TEST_INFO(live.output);
  BOOST_TEST(live.exit_code == 2);
  BOOST_TEST(contains(live.output, "tasks/mcp.yaml:9:18: 'script[1].call' calls mcp__everything__ecoh, but MCP server "
                                   "'everything' has no tool 'ecoh' (did you mean 'echo'?)\n"));
  // echo's schema leaves other keys open, so 'msg' itself is allowed; the key it needs is missing.
  BOOST_TEST(contains(live.output, "tasks/mcp.yaml:10:48: 'script[2].call': mcp__everything__echo needs the input "
                                   "'message'\n"));
  BOOST_TEST(contains(live.output, "tasks/mcp.yaml:11:55: 'script[3].call': mcp__everything__get-sum's input 'a' must "
                                   "be a number, got \"two\"\n"));
  BOOST_TEST(!contains(live.output, "script[0]"));  // the call that fits says nothing
  BOOST_TEST(!contains(live.output, "valid task"));
}

// A server that offers resources has agent-run's pair for them: --mcp checks their calls too.
BOOST_AUTO_TEST_CASE(calls_of_a_server_s_resource_tools_are_checked_against_their_schemas) {
  CommandResult result =
      validate(task_with("  - call: {tool: mcp__everything__read_resource, input: {uri: \"demo://x\"}}\n"
                         "  - call: {tool: mcp__everything__list_resources, input: {}}\n"
                         "  - call: {tool: mcp__everything__read_resource, input: {url: \"demo://x\"}}\n"),
               {"--mcp"});
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 2);
  BOOST_TEST(!contains(result.output, "has no tool"));
  BOOST_TEST(!contains(result.output, "script[0]"));
  BOOST_TEST(!contains(result.output, "script[1]"));
  BOOST_TEST(contains(result.output, "'script[2].call': mcp__everything__read_resource needs the input 'uri'"));
}

// server-filesystem's schemas are closed (additionalProperties: false): a key they do not name is wrong.
BOOST_AUTO_TEST_CASE(a_key_a_closed_schema_does_not_name_is_reported_at_the_key) {
  StdioCommand command = filesystem_command(".");
  std::string args;
  for (std::size_t i = 1; i < command.argv.size(); ++i) args += (i > 1 ? ", " : "") + Json(command.argv[i]).dump();
  const std::string task = "prompt: Read.\npolicy: ../policy.yaml\nchecks:\n  - run: \"true\"\nmcp_servers:\n"
                           "  files: {command: node, args: [" + args + "]}\nscript:\n"
                           "  - call: {tool: mcp__files__read_text_file, input: {pth: README}}\n  - say: Done.\n";
  CommandResult result = validate(task, {"--mcp"});
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 2);
  BOOST_TEST(contains(result.output, "tasks/mcp.yaml:8:54: 'script[0].call': mcp__files__read_text_file has no input "
                                     "'pth' (did you mean 'path'?)\n"));
}

BOOST_AUTO_TEST_CASE(a_server_that_does_not_start_is_an_error_at_the_first_call_that_needs_it) {
  const std::string task =
      "prompt: Use the server.\npolicy: ../policy.yaml\nchecks:\n  - run: \"true\"\nmcp_servers:\n"
      "  everything: {command: /nonexistent/mcp-server}\nscript:\n"
      "  - call: {tool: mcp__everything__echo, input: {message: hi}}\n"
      "  - call: {tool: mcp__everything__echo, input: {message: again}}\n  - say: Done.\n";
  CommandResult result = validate(task, {"--mcp"});
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 2);
  BOOST_TEST(contains(result.output, "tasks/mcp.yaml:8:18: 'script[0].call' calls mcp__everything__echo, but MCP "
                                     "server 'everything' could not be asked for its tools: "));
  BOOST_TEST(!contains(result.output, "script[1]"));  // said once, at the first call
}

BOOST_AUTO_TEST_SUITE_END()
