// Stdio MCP servers started through the launch hook inside bubblewrap, as an attempt's sandbox
// starts them: they work over their pipes, and cannot write outside the workspace.
#include "exec/attempt_sandbox.h"
#include "support/fixtures.h"
#include "support/mcp_servers.h"
#include "support/sandbox_support.h"

#include <boost/test/unit_test.hpp>

#include <unistd.h>

using namespace agent_run;
using namespace agent_run::test;
using namespace std::chrono_literals;

namespace {

/// A server whose tool `write` writes the file its `path` argument names and says how that went.
constexpr const char* k_writing_server = R"(import json, os, sys
for line in sys.stdin:
    message = json.loads(line)
    method, id = message.get("method"), message.get("id")
    if method == "initialize":
        result = {"protocolVersion": message["params"]["protocolVersion"], "capabilities": {"tools": {}}}
    elif method == "tools/call":
        path = message["params"]["arguments"]["path"]
        try:
            open(path, "w").write("written by the server\n")
            said = "wrote " + path
        except OSError as error:
            said = "failed: " + error.strerror
        result = {"content": [{"type": "text", "text": said + "; pid " + str(os.getpid())}]}
    elif id is not None:
        result = {}
    else:
        continue
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": id, "result": result}) + "\n")
    sys.stdout.flush()
)";

/// `command` started in `workspace` inside the attempt's sandbox `holder` (the default one for that
/// workspace, as a run starts it), through the launch hook as attempt_mcp.cpp wires it.
std::unique_ptr<McpClient> connect_sandboxed(StdioCommand command, const std::filesystem::path& workspace,
                                             std::unique_ptr<AttemptSandbox>& holder, const TempFolder& scratch) {
  SandboxRequest request;
  request.workspace = workspace;
  // As a run shows a sandboxed server's files (batch/task_programs): the folder of each absolute word.
  for (const std::string& word : command.argv) {
    if (!word.starts_with('/')) continue;
    for (ShownFolder& folder : folders_for_program(word, std::nullopt, "the MCP server")) request.shown.push_back(folder);
  }
  auto started = AttemptSandbox::start(request, scratch.path(), test_environment());
  BOOST_REQUIRE_MESSAGE(started.has_value(), (started ? std::string() : started.error().message));
  holder = std::move(*started);
  command.cwd = workspace;
  const AttemptSandbox* sandbox = holder.get();
  LaunchWrapper wrap = [sandbox](ProcessSpec spec) { return sandbox->wrap(std::move(spec)); };
  auto client =
      McpClient::connect(std::make_unique<StdioTransport>(std::move(command), wrap, nullptr), McpClientSettings{});
  BOOST_REQUIRE_MESSAGE(client.has_value(), (client ? std::string() : client.error().message));
  return std::move(*client);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sandboxed_servers, *boost::unit_test::precondition(test::sandbox_usable))

BOOST_AUTO_TEST_CASE(the_reference_server_works_inside_bubblewrap) {
  TempFolder workspace;
  TempFolder scratch;
  std::unique_ptr<AttemptSandbox> holder;  // outlives the client, as in an attempt
  auto client = connect_sandboxed(everything_command(), workspace.path(), holder, scratch);
  McpCallResult result = client->call_tool("echo", Json::object().set("message", "from the sandbox"), 30s);
  BOOST_TEST(result.content.at(0).text == "Echo: from the sandbox");
}

BOOST_AUTO_TEST_CASE(a_sandboxed_server_writes_in_the_workspace_only) {
  TempFolder workspace;
  // A folder outside /tmp (the sandbox's /tmp is its own, empty), which the runner may write to and
  // the sandbox does not show.
  std::filesystem::path elsewhere = std::filesystem::current_path() / ("mcp-sandbox-" + std::to_string(::getpid()));
  std::filesystem::create_directories(elsewhere);
  struct Removal {
    std::filesystem::path path;
    ~Removal() { std::filesystem::remove_all(path); }
  } removal{elsewhere};
  // The sandbox's /tmp is its own, so the script lives in the workspace, the one folder it shares.
  TempFolder scratch;
  std::unique_ptr<AttemptSandbox> holder;  // outlives the client, as in an attempt
  auto client = connect_sandboxed(python_command(workspace.write("tools/server.py", k_writing_server)),
                                  workspace.path(), holder, scratch);
  std::string inside = (workspace.path() / "made.txt").string();
  std::string outside = (elsewhere / "escaped.txt").string();
  McpCallResult wrote = client->call_tool("write", Json::object().set("path", inside), 30s);
  BOOST_TEST(wrote.content.at(0).text.rfind("wrote " + inside, 0) == 0u, wrote.content.at(0).text);
  BOOST_TEST(workspace.read("made.txt") == "written by the server\n");
  McpCallResult refused = client->call_tool("write", Json::object().set("path", outside), 30s);
  // Beside the build is not there inside at all.
  BOOST_TEST(refused.content.at(0).text.rfind("failed: No such file or directory", 0) == 0u, refused.content.at(0).text);
  BOOST_TEST(!std::filesystem::exists(outside));
}

BOOST_AUTO_TEST_SUITE_END()
