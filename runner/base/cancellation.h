#pragma once

#include <atomic>

namespace agent_run {

/// A one-way stop request shared by a run's threads: set once (by SIGINT or SIGTERM, or by a test),
/// seen by the run loop before each attempt, by the agent loop before each turn, and by every child
/// process's poll loop through wait_fd(), which becomes readable for good once it is set.
class Cancellation {
 public:
  Cancellation();
  ~Cancellation();
  Cancellation(const Cancellation&) = delete;
  Cancellation& operator=(const Cancellation&) = delete;

  /// Requests the stop; the first call's `signal` is kept. Async-signal-safe: a signal handler may call it.
  void cancel(int signal) noexcept;
  /// Whether the stop was requested.
  bool cancelled() const noexcept { return m_signal.load(std::memory_order_acquire) != 0; }
  /// The signal that requested the stop (SIGINT, SIGTERM, ...); -1 when cancel(0) requested it; 0 when not requested.
  int signal() const noexcept { return m_signal.load(std::memory_order_acquire); }
  /// A file descriptor that poll() reports readable once the stop is requested (an eventfd).
  int wait_fd() const noexcept { return m_fd; }

 private:
  std::atomic<int> m_signal{0};
  int m_fd = -1;
};

}  // namespace agent_run
