#pragma once

#include "exec/child_process.h"
#include "exec/spawn.h"

#include <cstddef>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

namespace agent_run {

class Cancellation;

/// Why a ChildReader stopped reading.
enum class ReadEnd {
  closed,     // the child exited or closed its stdout
  refused,    // the stdout handler refused what it read (garbage, a message too long)
  cancelled,  // the run's cancellation fired (SIGINT or SIGTERM to agent-run)
  stopped,    // stop() was called
};

/// Reads a long-lived child's stdout and stderr on a thread of its own, so that the child never
/// blocks on a full pipe: stdout goes to a handler as it arrives, stderr is drained into a tail of
/// bounded size. One poll loop over both pipes, the child's pidfd (its exit ends the reading even
/// when something it left running holds its pipes open), a wake-up eventfd for stop() and the run's
/// cancellation eventfd. The handlers run on the reader's thread; the end handler runs once, last.
/// The reader only reads: the owner writes to the child, signals it and reaps it.
class ChildReader {
 public:
  /// Takes bytes read from stdout; false means the output is unusable and reading stops (refused).
  using StdoutHandler = std::function<bool(std::string_view bytes)>;
  using EndHandler = std::function<void(ReadEnd end)>;

  /// Starts reading `child`, which must outlive the reader.
  ChildReader(const ChildProcess& child, StdoutHandler on_stdout, EndHandler on_end, const Cancellation* cancellation,
              std::size_t stderr_tail_bytes);
  ~ChildReader();
  ChildReader(const ChildReader&) = delete;
  ChildReader& operator=(const ChildReader&) = delete;

  /// Stops reading (when it has not ended already) and waits for the thread; the end handler has
  /// run when this returns. Call from the owner's thread, never from a handler.
  void stop();
  /// The last bytes the child wrote to stderr (at most the tail size given), and how many it wrote in all.
  std::string stderr_tail() const;
  std::size_t stderr_bytes() const;

 private:
  void loop();
  ReadEnd run_until_end();
  ReadEnd read_last_words();
  bool read_stdout(bool& refused);
  bool drain_stderr();

  const ChildProcess& m_child;
  StdoutHandler m_on_stdout;
  EndHandler m_on_end;
  const Cancellation* m_cancellation;
  std::size_t m_tail_limit;
  Fd m_wake;    // eventfd written by stop()
  Fd m_exited;  // the child's pidfd: readable once it has exited (-1 where the kernel has none)

  mutable std::mutex m_mutex;  // guards the stderr tail and count
  std::string m_stderr_tail;
  std::size_t m_stderr_bytes = 0;

  std::thread m_thread;  // last: started once everything above is in place
};

}  // namespace agent_run
