#pragma once

#include "base/expected.h"
#include "base/json.h"

#include <chrono>
#include <string>

namespace agent_run {

/// Receives what a transport reads from its server. Called on the transport's threads (and, for
/// HTTP, on the thread that sends a request while its reply is read), so it must be thread-safe.
class TransportListener {
 public:
  virtual ~TransportListener() = default;
  /// One JSON-RPC message from the server.
  virtual void on_message(const Json& message) = 0;
  /// The server is gone or cannot be trusted any more, and why, in words for the report. Once.
  virtual void on_closed(const std::string& why) = 0;
};

/// Facts about a transport's server for the report: its stderr tail (stdio) and how it ended.
struct TransportFacts {
  std::string stderr_tail;
  std::size_t stderr_bytes = 0;
  std::string ending;  // "exited with code 0", "was killed by signal 9 (Killed)", ""
};

/// How an MCP client exchanges JSON-RPC messages with one server: a child's stdio or streamable
/// HTTP. The client (mcp_client) owns the lifecycle; a transport only moves messages.
class McpTransport {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;

  virtual ~McpTransport() = default;
  /// Starts it (spawns the server, for stdio); from then on what it reads goes to `listener`, which
  /// must outlive it.
  virtual Expected<void> open(TransportListener& listener) = 0;
  /// Sends one message, waiting at most until `deadline`. Over HTTP the reply is read here too:
  /// for a request this returns once its response went to the listener (or the exchange failed).
  virtual Expected<void> send(const Json& message, TimePoint deadline) = 0;
  /// Initialization is done and `protocol_version` was agreed: HTTP sends it with every request
  /// from now on and opens the stream for requests the server starts, waiting at most until `deadline`.
  virtual void initialized(const std::string& protocol_version, TimePoint deadline) = 0;
  /// Ends the conversation: stdio closes the server's stdin, waits up to `grace` for it to exit,
  /// then SIGTERM and SIGKILL; HTTP ends its session (DELETE). Safe to call more than once.
  virtual void close(std::chrono::milliseconds grace) = 0;
  /// What the report shows about the server process (empty for HTTP).
  virtual TransportFacts facts() const = 0;
  /// True when the server ended the session (streamable HTTP: 404 to a request that carried its
  /// session id) since initialized() was last called: the transport has no session any more, and
  /// the client must initialize again. Never for stdio.
  virtual bool session_lost() const { return false; }
};

}  // namespace agent_run
