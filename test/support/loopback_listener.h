#pragma once

#include <atomic>
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
  /// Connections accepted so far (waits briefly so a connection in flight is counted).
  int connections() const;
  /// Connects to the listener directly and waits until it has counted the connection.
  void connect_directly() const;

 private:
  void accept_loop();

  int m_socket = -1;
  int m_port = 0;
  std::atomic<int> m_connections{0};
  std::atomic<bool> m_stop{false};
  std::thread m_thread;
};

}  // namespace agent_run::test
