// The streamable HTTP transport against small python3 servers the tests write: stateless servers,
// replies on the standalone stream, resumption after a cut stream, error statuses, broken servers.
#include "mcp/http_transport.h"
#include "base/cancellation.h"
#include "base/text.h"
#include "support/mcp_servers.h"
#include "support/waiting.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <csignal>
#include <thread>

using namespace agent_run;
using namespace agent_run::test;
using namespace std::chrono_literals;

namespace {

/// What every test server shares: a threading HTTP server on 127.0.0.1 that prints its port, logs
/// each request as `KIND {json}` on stdout, and calls the test's on_post and on_get.
constexpr const char* k_http_base = R"(import json, queue, sys, threading, time
from http.server import ThreadingHTTPServer, BaseHTTPRequestHandler
def log(kind, **fields):
    sys.stdout.write(kind + " " + json.dumps(fields) + "\n")
    sys.stdout.flush()
def initialize_result(message, version=None):
    return {"jsonrpc": "2.0", "id": message["id"], "result": {
        "protocolVersion": version or message["params"]["protocolVersion"],
        "capabilities": {"tools": {}}, "serverInfo": {"name": "http-test", "version": "1"}}}
def text_result(message, words):
    return {"jsonrpc": "2.0", "id": message["id"], "result": {"content": [{"type": "text", "text": words}]}}
TOOLS = {"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]}
class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass
    def reply_json(self, status, value, headers={}):
        data = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, text in headers.items():
            self.send_header(name, text)
        self.end_headers()
        self.wfile.write(data)
    def reply_empty(self, status):
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()
    def start_events(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
    def event(self, data, id=None, retry=None):
        text = ""
        if id is not None:
            text += "id: %s\n" % id
        if retry is not None:
            text += "retry: %d\n" % retry
        text += "data: %s\n\n" % (json.dumps(data) if data != "" else "")
        self.wfile.write(text.encode())
        self.wfile.flush()
    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        message = json.loads(self.rfile.read(length))
        log("POST", method=message.get("method"), id=message.get("id"), session=self.headers.get("Mcp-Session-Id"),
            version=self.headers.get("MCP-Protocol-Version"), auth=self.headers.get("Authorization"),
            accept=self.headers.get("Accept"))
        on_post(self, message)
    def do_GET(self):
        log("GET", last_event_id=self.headers.get("Last-Event-ID"), session=self.headers.get("Mcp-Session-Id"),
            t=time.monotonic())
        on_get(self)
    def do_DELETE(self):
        log("DELETE", session=self.headers.get("Mcp-Session-Id"))
        self.reply_empty(200)
def answer_simply(handler, message, headers={}):
    method = message.get("method")
    if method == "initialize":
        handler.reply_json(200, initialize_result(message), headers)
    elif method == "tools/list":
        handler.reply_json(200, {"jsonrpc": "2.0", "id": message["id"], "result": TOOLS}, headers)
    elif "id" not in message or "method" not in message:
        handler.reply_empty(202)
    else:
        handler.reply_json(200, text_result(message, "plain"), headers)
def on_get(handler):
    handler.reply_empty(405)
def serve():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print("PORT %d" % server.server_address[1], flush=True)
    server.serve_forever()
)";

/// A python3 HTTP MCP server: the shared base, the test's handlers, then serve().
struct HttpScriptServer {
  explicit HttpScriptServer(const std::string& handlers)
      : script(folder.write("server.py", std::string(k_http_base) + handlers + "serve()\n")),
        server({"python3", script.string()}, server_environment()) {}
  std::string url() const { return server.url("/mcp"); }
  /// The logged requests of one kind (POST, GET, DELETE), as JSON objects, once at least `at_least`
  /// of them have reached the test (the server logs before it answers, but its output is read by a thread).
  std::vector<Json> requests(const std::string& kind, std::size_t at_least = 0) const {
    wait_until([&] { return logged(kind).size() >= at_least; });
    return logged(kind);
  }
  std::vector<Json> logged(const std::string& kind) const {
    std::vector<Json> found;
    for (const std::string& line : split(server.output(), '\n')) {
      if (line.rfind(kind + " ", 0) != 0) continue;
      auto parsed = parse_json(line.substr(kind.size() + 1));
      if (parsed) found.push_back(*parsed);
    }
    return found;
  }
  TempFolder folder;
  std::filesystem::path script;
  ListeningServer server;
};

std::string all_text(const McpCallResult& result) {
  std::string text;
  for (const McpContent& block : result.content) text += block.text + "\n";
  return text;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::unique_ptr<McpClient> connect_with(const std::string& url, std::vector<HttpHeader> headers,
                                        McpClientSettings settings = {}) {
  auto transport = std::make_unique<HttpTransport>(HttpEndpoint{url, std::move(headers)}, nullptr);
  auto client = McpClient::connect(std::move(transport), std::move(settings));
  BOOST_REQUIRE_MESSAGE(client.has_value(), (client ? std::string() : client.error().message));
  return std::move(*client);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(http_transport)

BOOST_AUTO_TEST_CASE(a_stateless_json_server_gets_no_session_header_and_no_delete) {
  HttpScriptServer server("def on_post(handler, message):\n    answer_simply(handler, message)\n");
  {
    auto client = connect_http(server.url());
    BOOST_TEST(all_text(client->call_tool("echo", Json::object(), 30s)) == "plain\n");
    client->close();
  }
  std::vector<Json> posts = server.requests("POST", 3);
  BOOST_REQUIRE(posts.size() == 3u);  // initialize, notifications/initialized, tools/call
  for (const Json& post : posts) BOOST_TEST(post.find("session")->is_null());
  BOOST_TEST(posts[0].get_string("accept") == "application/json, text/event-stream");
  BOOST_TEST(server.requests("DELETE").empty());
}

BOOST_AUTO_TEST_CASE(the_session_id_and_protocol_version_go_with_every_later_request) {
  HttpScriptServer server(
      "def on_post(handler, message):\n    answer_simply(handler, message, {'Mcp-Session-Id': 'sess-42'})\n");
  {
    auto client = connect_http(server.url());
    (void)client->call_tool("echo", Json::object(), 30s);
  }
  std::vector<Json> posts = server.requests("POST", 3);
  BOOST_REQUIRE(posts.size() == 3u);
  BOOST_TEST(posts[0].find("session")->is_null());
  BOOST_TEST(posts[0].find("version")->is_null());  // not on initialize itself
  BOOST_TEST(posts[2].get_string("session") == "sess-42");
  BOOST_TEST(posts[2].get_string("version") == "2025-11-25");
  std::vector<Json> deletes = server.requests("DELETE", 1);
  BOOST_REQUIRE(deletes.size() == 1u);
  BOOST_TEST(deletes[0].get_string("session") == "sess-42");
}

BOOST_AUTO_TEST_CASE(the_endpoint_headers_are_sent_and_a_secret_echoed_back_is_redacted) {
  HttpScriptServer server(R"(def on_post(handler, message):
    if message.get("method") == "tools/call":
        handler.reply_json(401, {"error": "token " + handler.headers.get("Authorization") + " is not valid"})
    else:
        answer_simply(handler, message)
)");
  McpClientSettings settings;
  settings.secrets = {"tok-123456"};
  auto client = connect_with(server.url(), {{"Authorization", "Bearer tok-123456"}}, settings);
  McpCallResult result = client->call_tool("echo", Json::object(), 30s);
  BOOST_TEST(result.is_error);
  BOOST_TEST(contains(result.error, "HTTP 401"), result.error);
  BOOST_TEST(contains(result.error, "[redacted]"), result.error);
  BOOST_TEST(!contains(result.error, "tok-123456"), result.error);
  BOOST_TEST(server.requests("POST", 1)[0].get_string("auth") == "Bearer tok-123456");
}

BOOST_AUTO_TEST_CASE(a_json_rpc_error_in_an_error_status_answers_the_call) {
  HttpScriptServer server(R"(def on_post(handler, message):
    if message.get("method") == "tools/call":
        handler.reply_json(400, {"jsonrpc": "2.0", "id": None, "error": {"code": -32602, "message": "Unknown tool: echo"}})
    else:
        answer_simply(handler, message)
)");
  auto client = connect_http(server.url());
  McpCallResult result = client->call_tool("echo", Json::object(), 30s);
  BOOST_TEST(result.is_error);
  BOOST_TEST(contains(result.error, "error -32602: Unknown tool: echo (HTTP 400)"), result.error);
}

BOOST_AUTO_TEST_CASE(a_cut_reply_stream_is_resumed_with_last_event_id_after_the_retry_time) {
  HttpScriptServer server(R"(pending = {}
def on_post(handler, message):
    if message.get("method") == "tools/call":
        pending["id"] = message["id"]
        handler.start_events()
        handler.event("", id="e1", retry=300)
        log("CUT", t=time.monotonic())
    else:
        answer_simply(handler, message, {"Mcp-Session-Id": "s1"})
def on_get(handler):
    if handler.headers.get("Last-Event-ID") != "e1":
        handler.reply_empty(405)
        return
    handler.start_events()
    handler.event("", id="e2")
    handler.event(text_result({"id": pending["id"]}, "resumed"), id="e3")
)");
  auto client = connect_http(server.url());
  McpCallResult result = client->call_tool("echo", Json::object(), 60s);
  BOOST_TEST(all_text(result) == "resumed\n", result.error);
  std::vector<Json> cuts = server.requests("CUT", 1);
  wait_until([&] {  // the resuming GET is logged before its answer, which the call has read
    for (const Json& get : server.logged("GET")) {
      if (get.get_string("last_event_id") == "e1") return true;
    }
    return false;
  });
  std::vector<Json> gets = server.requests("GET");
  BOOST_REQUIRE(cuts.size() == 1u);
  auto resumption = std::find_if(gets.begin(), gets.end(),  // beside the standalone stream's GET (refused)
                                 [](const Json& get) { return get.get_string("last_event_id") == "e1"; });
  BOOST_REQUIRE(resumption != gets.end());
  BOOST_TEST(resumption->get_string("session") == "s1");
  double waited = resumption->find("t")->as_double() - cuts[0].find("t")->as_double();
  BOOST_TEST(waited >= 0.3, "reconnected after " << waited << " s, before the server's retry of 0.3 s");
}

BOOST_AUTO_TEST_CASE(a_cut_stream_without_event_ids_fails_the_call_clearly) {
  HttpScriptServer server(R"(def on_post(handler, message):
    if message.get("method") == "tools/call":
        handler.start_events()
    else:
        answer_simply(handler, message)
)");
  auto client = connect_http(server.url());
  McpCallResult result = client->call_tool("echo", Json::object(), 30s);
  BOOST_TEST(result.is_error);
  BOOST_TEST(contains(result.error, "ended its event stream without answering request 2"), result.error);
}

BOOST_AUTO_TEST_CASE(a_response_may_come_on_the_standalone_stream_after_202) {
  HttpScriptServer server(R"(answers = queue.Queue()
def on_post(handler, message):
    if message.get("method") == "tools/call":
        handler.reply_empty(202)
        answers.put(text_result(message, "via the standalone stream"))
    else:
        answer_simply(handler, message, {"Mcp-Session-Id": "s2"})
def on_get(handler):
    handler.start_events()
    handler.event("", id="g1")
    while True:
        try:
            handler.event(answers.get(timeout=60), id="g2")
        except queue.Empty:
            return
)");
  auto client = connect_http(server.url());
  McpCallResult result = client->call_tool("echo", Json::object(), 60s);
  BOOST_TEST(all_text(result) == "via the standalone stream\n", result.error);
}

BOOST_AUTO_TEST_CASE(a_server_without_a_standalone_stream_still_serves_calls) {
  HttpScriptServer server(
      "def on_post(handler, message):\n    answer_simply(handler, message, {'Mcp-Session-Id': 's3'})\n");
  auto owned = std::make_unique<HttpTransport>(HttpEndpoint{server.url(), {}}, nullptr);
  HttpTransport& transport = *owned;
  auto client = McpClient::connect(std::move(owned), McpClientSettings{});
  BOOST_REQUIRE(client.has_value());
  BOOST_TEST(all_text((*client)->call_tool("echo", Json::object(), 30s)) == "plain\n");
  BOOST_TEST(eventually([&] { return !transport.standalone_stream_problem().empty(); }));
  BOOST_TEST(contains(transport.standalone_stream_problem(), "HTTP 405"));
}

BOOST_AUTO_TEST_CASE(a_forgotten_session_is_reported_as_such) {
  HttpScriptServer server(R"(def on_post(handler, message):
    if message.get("method") == "tools/call":
        handler.reply_json(404, {"jsonrpc": "2.0", "id": None, "error": {"code": -32001, "message": "Session not found"}})
    else:
        answer_simply(handler, message, {"Mcp-Session-Id": "gone"})
)");
  auto client = connect_http(server.url());
  McpCallResult result = client->call_tool("echo", Json::object(), 30s);
  BOOST_TEST(contains(result.error, "no longer knows this session (HTTP 404 to tools/call), in a new session too"),
             result.error);
  BOOST_TEST(server.requests("POST", 6).size() == 6u);  // a new session was tried once, and the call in it
}

// Issue 30 item 10: the spec's "a 404 to a request with Mcp-Session-Id means the session ended;
// start a new one": the server drops its first session after one call; the next call initializes
// anew, gets the second session's id, and is answered in it.
BOOST_AUTO_TEST_CASE(a_session_the_server_ended_is_initialized_anew_and_the_call_sent_again) {
  HttpScriptServer server(R"(sessions = {"live": None, "made": 0}
def on_post(handler, message):
    method, session = message.get("method"), handler.headers.get("Mcp-Session-Id")
    if method == "initialize":
        sessions["made"] += 1
        sessions["live"] = "session-%d" % sessions["made"]
        handler.reply_json(200, initialize_result(message), {"Mcp-Session-Id": sessions["live"]})
    elif session != sessions["live"]:
        handler.reply_json(404, {"jsonrpc": "2.0", "id": None, "error": {"code": -32001, "message": "Session not found"}})
    elif method == "tools/call":
        handler.reply_json(200, text_result(message, "answered in " + session))
        sessions["live"] = "dropped"
    else:
        answer_simply(handler, message)
)");
  auto owned = std::make_unique<HttpTransport>(HttpEndpoint{server.url(), {}}, nullptr);
  HttpTransport& transport = *owned;
  auto client = McpClient::connect(std::move(owned), McpClientSettings{});
  BOOST_REQUIRE(client.has_value());
  BOOST_TEST(all_text((*client)->call_tool("echo", Json::object(), 30s)) == "answered in session-1\n");
  McpCallResult second = (*client)->call_tool("echo", Json::object(), 30s);
  BOOST_TEST(all_text(second) == "answered in session-2\n", second.error);
  BOOST_TEST(transport.session_id() == "session-2");
  BOOST_TEST(!transport.session_lost());
  std::vector<Json> posts = server.requests("POST", 7);
  BOOST_REQUIRE(posts.size() == 7u);
  BOOST_TEST(posts[3].get_string("method") == "tools/call");  // the 404
  BOOST_TEST(posts[4].get_string("method") == "initialize");
  BOOST_TEST(posts[4].find("session")->is_null());  // a new session is asked for without the old id
  BOOST_TEST(posts[4].find("version")->is_null());
  BOOST_TEST(posts[5].get_string("method") == "notifications/initialized");
  BOOST_TEST(posts[6].get_string("session") == "session-2");
  BOOST_TEST(posts[6].get_string("version") == "2025-11-25");
}

BOOST_AUTO_TEST_CASE(nobody_listening_is_a_clear_connect_error) {
  int port = 0;
  {
    HttpScriptServer server("def on_post(handler, message):\n    answer_simply(handler, message)\n");
    port = server.server.port();
  }
  auto transport =
      std::make_unique<HttpTransport>(HttpEndpoint{"http://127.0.0.1:" + std::to_string(port) + "/mcp", {}}, nullptr);
  auto client = McpClient::connect(std::move(transport), McpClientSettings{});
  BOOST_REQUIRE(!client.has_value());
  BOOST_TEST(contains(client.error().message, "connection refused"), client.error().message);
}

BOOST_AUTO_TEST_CASE(a_reply_that_is_not_json_rpc_is_an_error_quoting_it) {
  HttpScriptServer server(R"(def on_post(handler, message):
    data = b"<html>Bad Gateway</html>"
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(data)))
    handler.end_headers()
    handler.wfile.write(data)
)");
  auto transport = std::make_unique<HttpTransport>(HttpEndpoint{server.url(), {}}, nullptr);
  auto client = McpClient::connect(std::move(transport), McpClientSettings{});
  BOOST_REQUIRE(!client.has_value());
  BOOST_TEST(contains(client.error().message, "not JSON-RPC: '<html>Bad Gateway</html>'"), client.error().message);
}

BOOST_AUTO_TEST_CASE(a_server_that_never_answers_a_call_times_out) {
  HttpScriptServer server(R"(def on_post(handler, message):
    if message.get("method") == "tools/call":
        time.sleep(3600)
    else:
        answer_simply(handler, message)
)");
  auto client = connect_http(server.url());
  McpCallResult result = client->call_tool("echo", Json::object(), 1000ms);
  BOOST_TEST(result.is_error);
  BOOST_TEST(contains(result.error, "did not answer tools/call within 1.0 s"), result.error);
}

BOOST_AUTO_TEST_CASE(the_runs_cancellation_interrupts_a_pending_call) {
  HttpScriptServer server(R"(def on_post(handler, message):
    if message.get("method") == "tools/call":
        log("WORKING")
        time.sleep(3600)
    else:
        answer_simply(handler, message)
)");
  Cancellation cancellation;
  auto transport = std::make_unique<HttpTransport>(HttpEndpoint{server.url(), {}}, &cancellation);
  auto client = McpClient::connect(std::move(transport), McpClientSettings{});
  BOOST_REQUIRE(client.has_value());
  std::thread stopper([&] {
    if (server.server.wait_for_output("WORKING")) cancellation.cancel(SIGINT);
  });
  McpCallResult result = (*client)->call_tool("echo", Json::object(), std::chrono::minutes(10));
  stopper.join();
  BOOST_TEST(result.is_error);
  BOOST_TEST(contains(result.error, "agent-run is stopping"), result.error);
}

BOOST_AUTO_TEST_SUITE_END()
