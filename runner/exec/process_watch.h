#pragma once

#include "exec/spawn.h"

#include <atomic>
#include <chrono>
#include <string_view>

namespace agent_run {

class Cancellation;

/// Receives a watched process's output as it is read (stdout and stderr interleaved).
class OutputSink {
 public:
  virtual ~OutputSink() = default;
  virtual void append(std::string_view bytes) = 0;
};

/// How a watched process ended.
struct ProcessEnding {
  int exit_code = -1;      // valid when signal == 0
  int signal = 0;          // the signal that ended it, if any
  bool timed_out = false;  // its deadline passed and its group was killed
  bool stopped = false;    // request_stop() killed its group
  bool cancelled = false;  // the run's cancellation killed its group (SIGINT/SIGTERM to agent-run)
  long long duration_ms = 0;
};

/// Watches one spawned process until it has exited and its output is read: one poll loop over the
/// output pipe, a pidfd, a wake-up eventfd and the run's cancellation eventfd. On its deadline, on
/// request_stop() from another thread, or when the cancellation fires, its group gets SIGTERM, then
/// SIGKILL after the grace. When its leader exits, whatever is
/// left of its group is killed and reaped, and the pipe is read a little longer (a process that
/// left the group may hold it open forever).
class ProcessWatch {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;

  ProcessWatch(SpawnedProcess process, TimePoint deadline, std::chrono::milliseconds kill_grace, OutputSink& sink,
               const Cancellation* cancellation = nullptr);

  /// Runs the loop to the end (blocking) and says how it went. Call once.
  ProcessEnding run();
  /// Thread-safe: ask run() to stop the process group now (SIGTERM, then SIGKILL after the grace).
  void request_stop();
  pid_t pid() const { return m_pid; }

 private:
  bool done() const { return m_exited && !m_output.is_open(); }
  void enforce_deadlines(TimePoint now);
  void poll_once();
  int poll_timeout_ms() const;
  void read_available();
  void check_exited();
  void reap();
  ProcessEnding ending() const;

  pid_t m_pid;
  Fd m_output;
  Fd m_pidfd;                          // readable when the process exits; not open on kernels before 5.3
  Fd m_wake;                           // eventfd written by request_stop()
  const Cancellation* m_cancellation;  // nullptr: nothing but the deadline and request_stop() ends it early
  std::chrono::milliseconds m_kill_grace;
  OutputSink& m_sink;
  TimePoint m_start;
  TimePoint m_deadline;
  TimePoint m_kill_at = TimePoint::max();
  TimePoint m_drain_until = TimePoint::max();
  std::atomic<bool> m_stop_requested{false};
  bool m_terminating = false;
  bool m_timed_out = false;
  bool m_stopped = false;
  bool m_cancelled = false;
  bool m_exited = false;
  int m_status = 0;
};

}  // namespace agent_run
