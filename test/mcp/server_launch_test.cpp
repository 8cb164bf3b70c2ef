#include "mcp/server_launch.h"
#include "support/mcp_servers.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;
using namespace agent_run::test;
using namespace std::chrono_literals;

namespace {

/// A stdio server whose one tool answers with what `expression` (python) says.
constexpr const char* k_reporting_server = R"(import json, os, sys
for line in sys.stdin:
    message = json.loads(line)
    method, id = message.get("method"), message.get("id")
    if method == "initialize":
        answer = {"protocolVersion": message["params"]["protocolVersion"], "capabilities": {"tools": {}}}
    elif method == "tools/call":
        answer = {"content": [{"type": "text", "text": str(eval(message["params"]["arguments"]["expression"]))}]}
    elif id is not None:
        answer = {}
    else:
        continue
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": id, "result": answer}) + "\n")
    sys.stdout.flush()
)";

struct Launch {
  Launch() : script(folder.write("report.py", k_reporting_server)) {
    context.environment = server_environment();
    context.variables = {"MY_TOKEN=tok-abcdef123", "EMPTY="};
    context.workspace = workspace.path();
    spec.name = "reporter";
    spec.command = {"python3", script.string()};
  }
  std::string ask(const std::string& expression) {
    auto client = connect_server(spec, context);
    BOOST_REQUIRE_MESSAGE(client.has_value(), (client ? std::string() : client.error().message));
    McpCallResult result = (*client)->call_tool("report", Json::object().set("expression", expression), 30s);
    BOOST_REQUIRE(!result.content.empty());
    return result.content[0].text;
  }
  TempFolder folder;
  TempFolder workspace;
  std::filesystem::path script;
  McpLaunchContext context;
  McpServerSpec spec;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(server_launch)

BOOST_AUTO_TEST_CASE(variables_are_expanded_and_their_values_remembered_as_secrets) {
  std::vector<std::string> secrets;
  auto text = expand_variables("Bearer ${MY_TOKEN}; ${EMPTY}.", {"MY_TOKEN=t0k", "EMPTY="}, secrets);
  BOOST_REQUIRE(text.has_value());
  BOOST_TEST(*text == "Bearer t0k; .");
  BOOST_TEST(secrets == std::vector<std::string>{"t0k"});
}

BOOST_AUTO_TEST_CASE(an_unset_or_malformed_variable_is_named_never_valued) {
  std::vector<std::string> secrets;
  BOOST_TEST(expand_variables("${NOPE}", {"MY_TOKEN=t0k"}, secrets).error().message ==
             "${NOPE} is not set in agent-run's environment");
  BOOST_TEST(expand_variables("${MY TOKEN}", {}, secrets).error().message == "'${MY TOKEN' is not a ${NAME} reference");
  BOOST_TEST(expand_variables("${OPEN", {}, secrets).error().message == "'${OPEN' is not a ${NAME} reference");
}

BOOST_AUTO_TEST_CASE(a_stdio_server_gets_its_env_with_variables_and_never_shows_their_values) {
  Launch launch;
  launch.spec.env = {{"TOKEN", "${MY_TOKEN}"}, {"PLAIN", "visible"}};
  BOOST_TEST(launch.ask("len(os.environ['TOKEN'])") == "13");
  BOOST_TEST(launch.ask("os.environ['PLAIN']") == "visible");
  BOOST_TEST(launch.ask("os.environ['TOKEN']") == "[redacted]");
}

BOOST_AUTO_TEST_CASE(a_missing_variable_keeps_the_server_from_starting_and_names_it) {
  Launch launch;
  launch.spec.env = {{"TOKEN", "${NOT_THERE}"}};
  auto client = connect_server(launch.spec, launch.context);
  BOOST_REQUIRE(!client.has_value());
  BOOST_TEST(client.error().message ==
             "MCP server 'reporter': env.TOKEN: ${NOT_THERE} is not set in agent-run's environment");
}

BOOST_AUTO_TEST_CASE(the_server_works_in_the_workspace_or_in_its_cwd_under_it) {
  Launch launch;
  BOOST_TEST(launch.ask("os.getcwd()") == launch.workspace.path().string());
  std::filesystem::create_directories(launch.workspace.path() / "sub");
  launch.spec.cwd = "sub";
  BOOST_TEST(launch.ask("os.getcwd()") == (launch.workspace.path() / "sub").string());
}

BOOST_AUTO_TEST_CASE(the_sandbox_wrapper_applies_unless_the_entry_turns_it_off) {
  Launch launch;
  launch.context.sandbox = [](ProcessSpec spec) {
    spec.argv.insert(spec.argv.begin(), {"env", "INSIDE=yes"});
    return spec;
  };
  BOOST_TEST(launch.ask("os.environ.get('INSIDE', 'no')") == "yes");
  launch.spec.sandbox = McpSandbox::off;
  BOOST_TEST(launch.ask("os.environ.get('INSIDE', 'no')") == "no");
}

BOOST_AUTO_TEST_CASE(a_server_that_fails_is_named_in_the_error) {
  Launch launch;
  launch.spec.command = {"no-such-program-here"};
  auto client = connect_server(launch.spec, launch.context);
  BOOST_REQUIRE(!client.has_value());
  BOOST_TEST(client.error().message.rfind("MCP server 'reporter': cannot start the MCP server: ", 0) == 0u,
             client.error().message);
}

BOOST_AUTO_TEST_SUITE_END()
