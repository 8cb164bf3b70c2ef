#pragma once

#include <atomic>
#include <mutex>
#include <thread>

namespace agent_run::test {

/// A TCP listener on 127.0.0.1 (a free port) that accepts and closes every connection and counts
/// them: tests use it to prove that nothing connected, and a direct connect to prove it works.
class LoopbackListener {
 public:
  LoopbackListener();
  ~LoopbackListener();
  LoopbackListener(const LoopbackListener&) = delete;
  LoopbackListener& operator=(const LoopbackListener&) = delete;

  int port() const { return m_port; }
  /// Connections made so far. A client's connect completes once the kernel has queued the
  /// connection on the listening socket, so this takes what is still queued before counting:
  /// whatever connected before the call is counted, without waiting for the accepting thread.
  int connections();
  /// Connects to the listener directly.
  void connect_directly() const;

 private:
  void accept_loop();
  /// Accepts, counts and closes what is queued; the caller holds m_mutex.
  void accept_queued();

  int m_socket = -1;
  int m_port = 0;
  std::mutex m_mutex;  // held while accepting, so a connection is either queued or counted
  int m_connections = 0;
  std::atomic<bool> m_stop{false};
  std::thread m_thread;
};

}  // namespace agent_run::test
