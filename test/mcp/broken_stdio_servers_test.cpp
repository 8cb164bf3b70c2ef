// Stdio MCP servers that misbehave, written by the tests in python3: every failure ends in a clear
// error within its deadline, never a hang, and the server process does not outlive the client.
#include "base/cancellation.h"
#include "support/mcp_servers.h"
#include "support/process_probes.h"

#include <boost/test/unit_test.hpp>

#include <csignal>
#include <thread>

using namespace agent_run;
using namespace agent_run::test;
using namespace std::chrono_literals;

namespace {

/// What every test server shares: one JSON-RPC message a line, keys in the order the reference
/// servers use ("result" first), and a loop that answers initialize and tools/list.
constexpr const char* k_server_base = R"(import json, os, sys, time
def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()
def result(id, value):
    send({"result": value, "jsonrpc": "2.0", "id": id})
def read():
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    return json.loads(line)
ECHO = {"name": "echo", "inputSchema": {"type": "object"}}
def serve(on_call, tools=None, version=None, list_tools=None):
    while True:
        message = read()
        method, id = message.get("method"), message.get("id")
        if method == "initialize":
            result(id, {"protocolVersion": version or message["params"]["protocolVersion"],
                        "capabilities": {"tools": {}}, "serverInfo": {"name": "test", "version": "1"}})
        elif method == "tools/list":
            if list_tools:
                list_tools(message)
            else:
                result(id, {"tools": tools or [ECHO]})
        elif method == "tools/call":
            on_call(message)
        elif method is not None and id is not None:
            result(id, {})
def text(id, words):
    result(id, {"content": [{"type": "text", "text": words}]})
)";

/// A python3 MCP server: the shared base, then `body`.
struct ScriptServer {
  explicit ScriptServer(const std::string& body)
      : script(folder.write("server.py", std::string(k_server_base) + body)) {}
  StdioCommand command() const { return python_command(script); }
  TempFolder folder;
  std::filesystem::path script;
};

/// Connects, expecting failure; returns the error.
std::string connect_error(StdioCommand command, McpClientSettings settings = {},
                          std::size_t max_message_bytes = StdioTransport::k_default_max_message_bytes) {
  auto transport = std::make_unique<StdioTransport>(std::move(command), nullptr, nullptr, max_message_bytes);
  auto client = McpClient::connect(std::move(transport), std::move(settings));
  BOOST_REQUIRE_MESSAGE(!client.has_value(), "the broken server connected");
  return client.error().message;
}

McpClientSettings quick_startup(std::chrono::milliseconds timeout) {
  McpClientSettings settings;
  settings.startup_timeout = timeout;
  return settings;
}

std::string all_text(const McpCallResult& result) {
  std::string text;
  for (const McpContent& block : result.content) text += block.text + "\n";
  return text;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// A stdio transport that keeps its server's pid where the test can read it after the client that
/// owns the transport is gone (a failed connect destroys both).
class PidKeepingTransport final : public McpTransport {
 public:
  PidKeepingTransport(std::unique_ptr<StdioTransport> inner, pid_t& pid) : m_inner(std::move(inner)), m_pid(pid) {}
  Expected<void> open(TransportListener& listener) override {
    Expected<void> opened = m_inner->open(listener);
    m_pid = m_inner->pid();
    return opened;
  }
  Expected<void> send(const Json& message, TimePoint deadline) override { return m_inner->send(message, deadline); }
  void initialized(const std::string& version, TimePoint deadline) override { m_inner->initialized(version, deadline); }
  void close(std::chrono::milliseconds grace) override { m_inner->close(grace); }
  TransportFacts facts() const override { return m_inner->facts(); }

 private:
  std::unique_ptr<StdioTransport> m_inner;
  pid_t& m_pid;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(broken_stdio_servers)

BOOST_AUTO_TEST_CASE(a_server_that_is_not_installed_says_so) {
  std::string error = connect_error(StdioCommand{{"no-such-mcp-server-xyz"}, {}, server_environment()});
  BOOST_TEST(contains(error, "cannot start the MCP server"));
  BOOST_TEST(contains(error, "no-such-mcp-server-xyz"));
  BOOST_TEST(contains(error, "not found on PATH"));
}

BOOST_AUTO_TEST_CASE(a_server_that_exits_at_once_gives_its_exit_code_and_last_words) {
  ScriptServer server("sys.stderr.write('MCP_TOKEN is not set\\n')\nsys.exit(3)\n");
  std::string error = connect_error(server.command());
  BOOST_TEST(contains(error, "exited with code 3"), error);
  BOOST_TEST(contains(error, "MCP_TOKEN is not set"), error);
}

BOOST_AUTO_TEST_CASE(a_server_that_never_answers_initialize_times_out_and_is_killed) {
  ScriptServer server("sys.stderr.write('pid %d\\n' % os.getpid())\nsys.stderr.flush()\ntime.sleep(3600)\n");
  pid_t pid = -1;
  auto transport = std::make_unique<StdioTransport>(server.command(), nullptr, nullptr);
  auto client = McpClient::connect(std::make_unique<PidKeepingTransport>(std::move(transport), pid), quick_startup(1500ms));
  BOOST_REQUIRE(!client.has_value());
  BOOST_TEST(contains(client.error().message, "did not answer initialize within 1.5 s"), client.error().message);
  BOOST_REQUIRE(pid > 0);
  BOOST_TEST(!is_alive(pid));
}

BOOST_AUTO_TEST_CASE(garbage_on_stdout_ends_the_connection_with_what_was_written) {
  ScriptServer server("read()\nprint('Welcome to my MCP server!', flush=True)\ntime.sleep(3600)\n");
  std::string error = connect_error(server.command());
  BOOST_TEST(contains(error, "not JSON-RPC on its stdout: 'Welcome to my MCP server!'"), error);
}

BOOST_AUTO_TEST_CASE(a_server_that_crashes_in_a_call_fails_the_call_and_the_ones_after) {
  ScriptServer server(R"(def crash(message):
    sys.stderr.write("Segmentation fault (simulated)\n")
    sys.stderr.flush()
    os._exit(7)
serve(crash)
)");
  auto client = connect_stdio(server.command());
  McpCallResult result = client->call_tool("echo", Json::object(), 30s);
  BOOST_TEST(result.is_error);
  BOOST_TEST(contains(result.error, "exited with code 7"), result.error);
  BOOST_TEST(contains(result.error, "Segmentation fault (simulated)"), result.error);
  McpCallResult next = client->call_tool("echo", Json::object(), 30s);
  BOOST_TEST(contains(next.error, "the MCP server is gone"), next.error);
  BOOST_TEST(client->log().transport.ending == "exited with code 7");
}

// Found by ci/soak.sh: outside the sandbox, the child kept the server's stdout open, so the call
// waited for its whole timeout and said the server did not answer.
BOOST_AUTO_TEST_CASE(a_server_that_crashes_in_a_call_leaving_a_child_on_its_stdout_fails_the_call_at_once) {
  ScriptServer server(R"(import subprocess
def crash(message):
    subprocess.Popen(["sleep", "1000"])
    os._exit(7)
serve(crash)
)");
  auto client = connect_stdio(server.command());
  McpCallResult result = client->call_tool("echo", Json::object(), 120s);
  BOOST_TEST(result.is_error);
  BOOST_TEST(contains(result.error, "exited with code 7"), result.error);
  BOOST_TEST(client->log().transport.ending == "exited with code 7");
}

BOOST_AUTO_TEST_CASE(a_call_that_is_never_answered_times_out_and_is_cancelled) {
  ScriptServer server(R"(cancelled = []
def hang(message):
    if message["params"]["name"] == "what-was-cancelled":
        text(message["id"], json.dumps(cancelled))
    else:
        while True:
            note = read()
            if note.get("method") == "notifications/cancelled":
                cancelled.append(note["params"]["requestId"])
                break
serve(hang)
)");
  auto client = connect_stdio(server.command());
  McpCallResult result = client->call_tool("echo", Json::object(), 1000ms);
  BOOST_TEST(result.is_error);
  BOOST_TEST(contains(result.error, "did not answer tools/call within 1.0 s"), result.error);
  // The server is still there, and was told to stop working on the call that timed out.
  McpCallResult asked = client->call_tool("what-was-cancelled", Json::object(), 30s);
  BOOST_TEST(!asked.is_error);
  BOOST_TEST(all_text(asked) == "[2]\n");  // initialize was 1, the timed-out call 2
}

BOOST_AUTO_TEST_CASE(a_flood_on_stderr_is_drained_and_only_its_tail_kept) {
  ScriptServer server(R"(for i in range(20000):
    sys.stderr.write("log line %d %s\n" % (i, "x" * 1000))
sys.stderr.write("ready\n")
sys.stderr.flush()
serve(lambda message: text(message["id"], "still here"))
)");
  auto client = connect_stdio(server.command());
  McpCallResult result = client->call_tool("echo", Json::object(), 60s);
  BOOST_TEST(all_text(result) == "still here\n");
  McpServerLog log = client->log();
  BOOST_TEST(log.transport.stderr_bytes > 20'000'000u);
  BOOST_TEST(log.transport.stderr_tail.size() <= StdioTransport::k_stderr_tail_bytes);
  BOOST_TEST(contains(log.transport.stderr_tail, "ready"));
}

BOOST_AUTO_TEST_CASE(a_line_over_the_size_cap_ends_the_connection) {
  ScriptServer server(R"(def flood(message):
    sys.stdout.write("{\"jsonrpc\": \"2.0\", \"id\": %d, \"result\": {\"content\": [{\"type\": \"text\", \"text\": \"" % message["id"])
    for i in range(300):
        sys.stdout.write("y" * 10000)
    sys.stdout.flush()
    time.sleep(3600)
serve(flood)
)");
  auto transport = std::make_unique<StdioTransport>(server.command(), nullptr, nullptr, 1u << 20);
  auto client = McpClient::connect(std::move(transport), McpClientSettings{});
  BOOST_REQUIRE(client.has_value());
  McpCallResult result = (*client)->call_tool("echo", Json::object(), 60s);
  BOOST_TEST(result.is_error);
  BOOST_TEST(contains(result.error, "a line of more than 1048576 bytes"), result.error);
}

BOOST_AUTO_TEST_CASE(an_enormous_tools_list_is_refused) {
  ScriptServer server(R"(tools = [{"name": "tool%d" % i, "inputSchema": {"type": "object"}} for i in range(600)]
serve(lambda message: None, tools=tools)
)");
  auto client = connect_stdio(server.command());
  auto tools = client->list_tools();
  BOOST_REQUIRE(!tools.has_value());
  BOOST_TEST(contains(tools.error().message, "offers more than 512 tools"), tools.error().message);
}

BOOST_AUTO_TEST_CASE(a_tools_list_that_pages_forever_is_refused) {
  ScriptServer server(R"(def pages(message):
    cursor = int((message.get("params") or {}).get("cursor", "0"))
    result(message["id"], {"tools": [{"name": "t%d" % cursor, "inputSchema": {"type": "object"}}],
                           "nextCursor": str(cursor + 1)})
serve(lambda message: None, list_tools=pages)
)");
  auto client = connect_stdio(server.command());
  auto tools = client->list_tools();
  BOOST_REQUIRE(!tools.has_value());
  BOOST_TEST(contains(tools.error().message, "more than 64 pages"), tools.error().message);
}

BOOST_AUTO_TEST_CASE(pages_of_a_tools_list_are_joined) {
  ScriptServer server(R"(def pages(message):
    cursor = (message.get("params") or {}).get("cursor")
    if cursor is None:
        result(message["id"], {"tools": [{"name": "first", "inputSchema": {"type": "object"}}], "nextCursor": "p2"})
    else:
        result(message["id"], {"tools": [{"name": "second", "inputSchema": {"type": "object"}}]})
serve(lambda message: None, list_tools=pages)
)");
  auto client = connect_stdio(server.command());
  auto tools = client->list_tools();
  BOOST_REQUIRE(tools.has_value());
  BOOST_REQUIRE(tools->size() == 2u);
  BOOST_TEST((*tools)[1].name == "second");
}

BOOST_AUTO_TEST_CASE(a_tool_that_cannot_be_offered_is_marked_and_the_others_are_kept) {
  ScriptServer server("serve(lambda message: None, tools=[{'name': 'bad'}, {'name': 'stringy', 'inputSchema': "
                      "{'type': 'string'}}, {'name': 'tasky', 'inputSchema': {'type': 'object'}, 'execution': "
                      "{'taskSupport': 'required'}}, 7, {'inputSchema': {}}, {'name': 'good', 'inputSchema': "
                      "{'type': 'object'}}])\n");
  auto client = connect_stdio(server.command());
  auto tools = client->list_tools();
  BOOST_REQUIRE_MESSAGE(tools.has_value(), (tools ? std::string() : tools.error().message));
  BOOST_REQUIRE(tools->size() == 6u);
  BOOST_TEST((*tools)[0].problem == "it has no inputSchema object");
  BOOST_TEST(contains((*tools)[1].problem, "inputSchema's type is \"string\""), (*tools)[1].problem);
  BOOST_TEST(contains((*tools)[2].problem, "taskSupport: required"), (*tools)[2].problem);
  BOOST_TEST((*tools)[3].problem == "it is not an object");
  BOOST_TEST((*tools)[4].problem == "it has no name");
  BOOST_TEST((*tools)[5].name == "good");
  BOOST_TEST((*tools)[5].problem.empty());
}

BOOST_AUTO_TEST_CASE(a_schema_without_a_type_is_offered_as_an_object_s) {
  ScriptServer server("serve(lambda message: None, tools=[{'name': 'bare', 'inputSchema': {}}, {'name': 'fields', "
                      "'inputSchema': {'properties': {'a': {'type': 'string'}}}}])\n");
  auto client = connect_stdio(server.command());
  auto tools = client->list_tools();
  BOOST_REQUIRE_MESSAGE(tools.has_value(), (tools ? std::string() : tools.error().message));
  BOOST_REQUIRE(tools->size() == 2u);
  BOOST_TEST((*tools)[0].problem.empty());
  BOOST_TEST((*tools)[0].input_schema.dump() == R"({"type":"object"})");
  BOOST_TEST((*tools)[1].input_schema.dump() == R"({"properties":{"a":{"type":"string"}},"type":"object"})");
}

BOOST_AUTO_TEST_CASE(a_server_that_refuses_newer_versions_is_asked_for_older_ones) {
  ScriptServer server(R"(while True:
    message = read()
    if message.get("method") == "initialize":
        asked = message["params"]["protocolVersion"]
        if asked != "2025-03-26":
            send({"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32602, "message": "Unsupported protocol version " + asked}})
            continue
        result(message["id"], {"protocolVersion": asked, "capabilities": {}, "serverInfo": {"name": "old", "version": "1"}})
        break
serve(lambda message: text(message["id"], "old but fine"))
)");
  auto client = connect_stdio(server.command());
  BOOST_TEST(client->server().protocol_version == "2025-03-26");
  BOOST_TEST(all_text(client->call_tool("echo", Json::object(), 30s)) == "old but fine\n");
}

BOOST_AUTO_TEST_CASE(a_lower_version_in_the_answer_is_accepted) {
  ScriptServer server("serve(lambda message: text(message['id'], 'ok'), version='2025-06-18')\n");
  auto client = connect_stdio(server.command());
  BOOST_TEST(client->server().protocol_version == "2025-06-18");
}

BOOST_AUTO_TEST_CASE(a_version_the_client_does_not_speak_is_refused) {
  ScriptServer server("serve(lambda message: None, version='2024-11-05')\n");
  std::string error = connect_error(server.command());
  BOOST_TEST(contains(error, "speaks protocol version '2024-11-05'"), error);
}

BOOST_AUTO_TEST_CASE(sampling_is_refused_and_the_server_reads_why) {
  ScriptServer server(R"(def sample(message):
    send({"jsonrpc": "2.0", "id": "s1", "method": "sampling/createMessage",
          "params": {"messages": [], "maxTokens": 10}})
    answer = read()
    text(message["id"], json.dumps(answer))
serve(sample)
)");
  auto client = connect_stdio(server.command());
  McpCallResult result = client->call_tool("echo", Json::object(), 30s);
  std::string said = all_text(result);
  BOOST_TEST(contains(said, "\"id\": \"s1\""), said);
  BOOST_TEST(contains(said, "-32601"), said);
  BOOST_TEST(contains(said, "does not let MCP servers use the model"), said);
}

BOOST_AUTO_TEST_CASE(a_server_request_with_the_same_id_as_the_pending_call_does_not_confuse_it) {
  ScriptServer server(R"(def ping_back(message):
    send({"jsonrpc": "2.0", "id": message["id"], "method": "ping"})  # its own counter, colliding
    pong = read()
    text(message["id"], "pong had result: %s" % ("result" in pong))
serve(ping_back)
)");
  auto client = connect_stdio(server.command());
  McpCallResult result = client->call_tool("echo", Json::object(), 30s);
  BOOST_TEST(all_text(result) == "pong had result: True\n");
}

BOOST_AUTO_TEST_CASE(the_runs_cancellation_stops_a_call_and_the_server) {
  ScriptServer server(R"(def hang(message):
    sys.stderr.write("working on it\n")
    sys.stderr.flush()
    time.sleep(3600)
serve(hang)
)");
  Cancellation cancellation;
  auto transport = std::make_unique<StdioTransport>(server.command(), nullptr, &cancellation);
  StdioTransport& stdio = *transport;
  auto client = McpClient::connect(std::move(transport), McpClientSettings{});
  BOOST_REQUIRE(client.has_value());
  std::thread stopper([&] {
    if (eventually([&] { return contains((*client)->log().transport.stderr_tail, "working on it"); })) {
      cancellation.cancel(SIGTERM);
    }
  });
  McpCallResult result = (*client)->call_tool("echo", Json::object(), std::chrono::minutes(10));
  stopper.join();
  BOOST_TEST(result.is_error);
  BOOST_TEST(contains(result.error, "agent-run is stopping"), result.error);
  BOOST_TEST(is_gone_soon(stdio.pid(), 10s));
}

BOOST_AUTO_TEST_CASE(nothing_is_started_once_the_run_is_stopping) {
  Cancellation cancellation;
  cancellation.cancel(SIGINT);
  pid_t pid = 0;
  auto transport = std::make_unique<StdioTransport>(everything_command(), nullptr, &cancellation);
  auto client = McpClient::connect(std::make_unique<PidKeepingTransport>(std::move(transport), pid), McpClientSettings{});
  BOOST_REQUIRE(!client.has_value());
  BOOST_TEST(contains(client.error().message, "nothing new is started"));
  BOOST_TEST(pid == -1);
}

BOOST_AUTO_TEST_CASE(the_launch_wrapper_decides_what_is_spawned) {
  ScriptServer server("serve(lambda message: text(message['id'], os.environ.get('WRAPPED', 'no')))\n");
  LaunchWrapper wrap = [](ProcessSpec spec) {
    spec.argv.insert(spec.argv.begin(), {"env", "WRAPPED=yes"});
    return spec;
  };
  auto transport = std::make_unique<StdioTransport>(server.command(), wrap, nullptr);
  auto client = McpClient::connect(std::move(transport), McpClientSettings{});
  BOOST_REQUIRE(client.has_value());
  BOOST_TEST(all_text((*client)->call_tool("echo", Json::object(), 30s)) == "yes\n");
}

BOOST_AUTO_TEST_SUITE_END()
