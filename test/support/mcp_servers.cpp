#include "support/mcp_servers.h"

#include "mcp/http_transport.h"

#include <boost/test/unit_test.hpp>

#include <unistd.h>

#include <regex>

extern char** environ;

namespace agent_run::test {

namespace {

/// A preload for node servers that call listen(port) without a host: binds 127.0.0.1 instead of
/// every interface, and prints `PORT <n>` once listening (the server may be given port 0). Also
/// gives node 18 (Debian 12's nodejs) the global `crypto` of node 20, which the SDK's streamable
/// HTTP transport calls (crypto.randomUUID()); without it every POST answers "Parse error".
constexpr const char* k_loopback_preload = R"(if (!globalThis.crypto) globalThis.crypto = require('crypto').webcrypto;
const net = require('net');
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === 'number' || (typeof args[0] === 'string' && /^\d+$/.test(args[0]))) {
    args[0] = Number(args[0]);
    if (typeof args[1] !== 'string') args.splice(1, 0, '127.0.0.1');
  }
  this.once('listening', () => process.stdout.write('PORT ' + this.address().port + '\n'));
  return listen.apply(this, args);
};
)";

std::filesystem::path require_installed(const std::string& package) {
  std::filesystem::path entry = mcp_node_modules() / "@modelcontextprotocol" / package / "dist/index.js";
  BOOST_REQUIRE_MESSAGE(std::filesystem::exists(entry),
                        "@modelcontextprotocol/" + package + " is not installed: run ci/install-test-tools.sh");
  return entry;
}

}  // namespace

std::filesystem::path mcp_node_modules() { return tools_folder() / "mcp/node_modules"; }

std::vector<std::string> server_environment() {
  std::vector<std::string> environment;
  for (char** entry = environ; *entry; ++entry) environment.emplace_back(*entry);
  return environment;
}

StdioCommand everything_command() {
  return StdioCommand{{"node", require_installed("server-everything").string(), "stdio"}, {}, server_environment()};
}

StdioCommand filesystem_command(const std::filesystem::path& root) {
  return StdioCommand{
      {"node", require_installed("server-filesystem").string(), root.string()}, {}, server_environment()};
}

StdioCommand python_command(const std::filesystem::path& script) {
  return StdioCommand{{"python3", script.string()}, {}, server_environment()};
}

std::unique_ptr<McpClient> connect_stdio(StdioCommand command, McpClientSettings settings) {
  auto transport = std::make_unique<StdioTransport>(std::move(command), nullptr, nullptr);
  auto client = McpClient::connect(std::move(transport), std::move(settings));
  BOOST_REQUIRE_MESSAGE(client.has_value(), "cannot connect: " + (client ? std::string() : client.error().message));
  return std::move(*client);
}

std::unique_ptr<McpClient> connect_http(const std::string& url, McpClientSettings settings) {
  auto transport = std::make_unique<HttpTransport>(HttpEndpoint{url, {}}, nullptr);
  auto client = McpClient::connect(std::move(transport), std::move(settings));
  BOOST_REQUIRE_MESSAGE(client.has_value(), "cannot connect: " + (client ? std::string() : client.error().message));
  return std::move(*client);
}

ListeningServer::ListeningServer(std::vector<std::string> argv, std::vector<std::string> environment)
    : m_child([&] {
        auto child = ChildProcess::spawn(argv, {}, environment);
        BOOST_REQUIRE_MESSAGE(child.has_value(), "cannot start " + argv.front());
        return std::move(*child);
      }()) {
  m_reader = std::make_unique<ChildReader>(
      m_child, [this](std::string_view bytes) { return take(bytes); },
      [this](ReadEnd) {
        std::lock_guard lock(m_mutex);
        m_ended = true;
        m_changed.notify_all();
      },
      nullptr, 4096);
  std::unique_lock lock(m_mutex);
  m_changed.wait_for(lock, std::chrono::seconds(60), [&] { return m_port != 0 || m_ended; });
  BOOST_REQUIRE_MESSAGE(m_port != 0, "the server did not start listening: " + m_output + m_reader->stderr_tail());
}

ListeningServer::~ListeningServer() {
  m_child.kill_and_reap();
  m_reader->stop();
}

bool ListeningServer::take(std::string_view bytes) {
  std::lock_guard lock(m_mutex);
  m_output.append(bytes);
  static const std::regex port_line("PORT (\\d+)\n");
  std::smatch match;
  if (m_port == 0 && std::regex_search(m_output, match, port_line)) m_port = std::stoi(match[1]);
  m_changed.notify_all();
  return true;
}

std::string ListeningServer::url(const std::string& path) const {
  return "http://127.0.0.1:" + std::to_string(m_port) + path;
}

std::string ListeningServer::output() const {
  std::lock_guard lock(m_mutex);
  return m_output;
}

bool ListeningServer::wait_for_output(const std::string& text) const {
  std::unique_lock lock(m_mutex);
  return m_changed.wait_for(lock, std::chrono::seconds(60), [&] {
    return m_output.find(text) != std::string::npos || m_ended;
  }) && m_output.find(text) != std::string::npos;
}

EverythingHttpServer::EverythingHttpServer() {
  std::filesystem::path preload = m_folder.write("loopback.cjs", k_loopback_preload);
  std::vector<std::string> environment = server_environment();
  std::erase_if(environment, [](const std::string& entry) { return entry.starts_with("PORT="); });
  environment.push_back("PORT=0");
  m_server = std::make_unique<ListeningServer>(
      std::vector<std::string>{"node", "-r", preload.string(), require_installed("server-everything").string(),
                               "streamableHttp"},
      environment);
}

}  // namespace agent_run::test
