#pragma once

#include "exec/child_process.h"
#include "exec/child_reader.h"
#include "exec/process.h"
#include "mcp/message_lines.h"
#include "mcp/transport.h"

#include <sys/types.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace agent_run {

class Cancellation;

/// How to start a stdio MCP server.
struct StdioCommand {
  std::vector<std::string> argv;         // argv[0] is looked up in the PATH of `environment`
  std::filesystem::path cwd;             // empty: the runner's
  std::vector<std::string> environment;  // KEY=VALUE: all the server sees
};

/// Turns the command into the one actually spawned: bubblewrap around it (exec/sandbox's
/// `sandboxed`), for instance. Empty: spawned as it is.
using LaunchWrapper = std::function<ProcessSpec(ProcessSpec)>;

/// An MCP server as a child process speaking JSON-RPC on its stdin and stdout, one message a
/// line: its own session and process group, stdout and stderr read on a thread of their own
/// (exec/child_reader) with the tail of stderr kept, the run's cancellation obeyed. Anything on
/// stdout that is not JSON-RPC, or a line over the size cap, ends the conversation: the server is
/// killed and the listener told why.
class StdioTransport final : public McpTransport {
 public:
  static constexpr std::size_t k_default_max_message_bytes = 16u << 20;
  static constexpr std::size_t k_stderr_tail_bytes = 4096;

  StdioTransport(StdioCommand command, LaunchWrapper wrap, const Cancellation* cancellation,
                 std::size_t max_message_bytes = k_default_max_message_bytes);
  ~StdioTransport() override;

  Expected<void> open(TransportListener& listener) override;
  Expected<void> send(const Json& message, TimePoint deadline) override;
  void initialized(const std::string&, TimePoint) override {}
  void close(std::chrono::milliseconds grace) override;
  TransportFacts facts() const override;

  /// The server's pid (its process group's too); -1 before open().
  pid_t pid() const;

 private:
  bool take_stdout(std::string_view bytes);
  void on_read_end(ReadEnd end);
  std::string why_it_ended(ReadEnd end);

  StdioCommand m_command;
  LaunchWrapper m_wrap;
  const Cancellation* m_cancellation;
  TransportListener* m_listener = nullptr;
  MessageLines m_lines;   // the reader's thread only
  std::string m_refusal;  // the reader's thread only: why take_stdout stopped reading

  mutable std::mutex m_child_mutex;  // waiting for, signalling and reaping the child
  std::mutex m_write_mutex;          // one writer at a time on its stdin
  std::optional<ChildProcess> m_child;
  bool m_closed = false;                  // guarded by m_child_mutex
  std::unique_ptr<ChildReader> m_reader;  // after m_child: stopped before the child goes away
};

}  // namespace agent_run
