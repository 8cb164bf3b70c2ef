#pragma once

#include "exec/child_process.h"
#include "exec/child_reader.h"
#include "mcp/mcp_client.h"
#include "mcp/stdio_transport.h"
#include "support/fixtures.h"
#include "support/process_probes.h"

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace agent_run::test {

/// The node_modules folder ci/install-test-tools.sh installs the MCP reference servers into.
std::filesystem::path mcp_node_modules();

/// This process's environment (PATH with node on it): what the test servers run with.
std::vector<std::string> server_environment();

/// server-everything over stdio; fails the test when it is not installed.
StdioCommand everything_command();
/// server-filesystem confined to `root`; fails the test when it is not installed.
StdioCommand filesystem_command(const std::filesystem::path& root);
/// `python3 SCRIPT` for a script the test wrote.
StdioCommand python_command(const std::filesystem::path& script);

/// Connects over stdio with `settings` and fails the test unless that works.
std::unique_ptr<McpClient> connect_stdio(StdioCommand command, McpClientSettings settings = {});
/// Connects over streamable HTTP with `settings` and fails the test unless that works.
std::unique_ptr<McpClient> connect_http(const std::string& url, McpClientSettings settings = {});

/// A server process started by the test that listens on 127.0.0.1 and prints `PORT <n>` on its
/// stdout once it does; the constructor waits for that line (it fails the test when the process
/// ends first). Killed with its process group at the end.
class ListeningServer {
 public:
  ListeningServer(std::vector<std::string> argv, std::vector<std::string> environment);
  ~ListeningServer();
  ListeningServer(const ListeningServer&) = delete;
  ListeningServer& operator=(const ListeningServer&) = delete;

  int port() const { return m_port; }
  /// `http://127.0.0.1:PORT` followed by `path`.
  std::string url(const std::string& path) const;
  /// Everything the server printed on stdout so far.
  std::string output() const;
  /// Waits (up to a minute) until its stdout holds `text`; false when it never does.
  bool wait_for_output(const std::string& text) const;

 private:
  bool take(std::string_view bytes);

  ChildProcess m_child;
  mutable std::mutex m_mutex;
  mutable std::condition_variable m_changed;
  std::string m_output;
  bool m_ended = false;
  int m_port = 0;
  std::unique_ptr<ChildReader> m_reader;
};

/// server-everything's streamable HTTP transport on 127.0.0.1 (a preload the test writes binds it
/// to loopback, since the server itself listens on every interface, and prints its port).
class EverythingHttpServer {
 public:
  EverythingHttpServer();
  std::string url() const { return m_server->url("/mcp"); }
  ListeningServer& process() { return *m_server; }

 private:
  TempFolder m_folder;
  std::unique_ptr<ListeningServer> m_server;
};

}  // namespace agent_run::test
