#pragma once

#include "base/expected.h"
#include "exec/process.h"
#include "exec/process_watch.h"

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace agent_run {

/// What a background process printed since it was last asked, and whether it still runs.
struct BackgroundRead {
  std::string output;         // head and tail of the new output, with the omitted byte count
  std::size_t new_bytes = 0;  // bytes printed since the last read, kept or not
  bool running = true;
  std::optional<ProcessEnding> ending;  // once it has ended
};

/// Who ended a background process.
enum class EndedBy { itself, process_kill, attempt_end };

/// `exited`, `process_kill` or `attempt_end`, as the report writes it.
const char* to_string(EndedBy by);

/// A command started with `background: true`: it runs in its own session and process group while a
/// thread of the runner reads its output into a buffer (so it never blocks on a full pipe) and reaps
/// it. When its leader exits, what is left of its group is killed, as for a foreground command.
class BackgroundProcess {
 public:
  /// Starts `spec` (its timeout is ignored: a background process runs until it ends or is stopped,
  /// or until spec.cancellation fires, which ends it as at the end of the attempt).
  static Expected<std::unique_ptr<BackgroundProcess>> start(const ProcessSpec& spec, std::string handle,
                                                            std::string command);
  ~BackgroundProcess();
  BackgroundProcess(const BackgroundProcess&) = delete;
  BackgroundProcess& operator=(const BackgroundProcess&) = delete;

  const std::string& handle() const { return m_handle; }
  const std::string& command() const { return m_command; }
  pid_t pid() const { return m_pid; }

  /// New output since the last read. Waits up to `wait` for new output or the end, whichever first.
  BackgroundRead read_new(std::chrono::milliseconds wait);
  /// Asks its watching thread to stop its group (SIGTERM, then SIGKILL after the spec's kill_grace)
  /// without waiting, so that many can be stopped at once.
  void begin_stop(EndedBy by);
  /// Stops its group (SIGTERM, then SIGKILL after the spec's kill_grace), waits for the end, and
  /// returns the last output. A process that has already ended is left as it is.
  BackgroundRead stop(EndedBy by);
  /// Everything it printed, kept or not.
  std::size_t output_bytes() const;
  /// How it ended and who ended it, once it has.
  std::optional<ProcessEnding> ending() const;
  EndedBy ended_by() const;

 private:
  class Buffer;
  BackgroundProcess(std::string handle, std::string command, pid_t pid);
  void watch();
  BackgroundRead take_locked();

  std::string m_handle;
  std::string m_command;
  pid_t m_pid;
  mutable std::mutex m_mutex;
  std::condition_variable m_changed;
  std::unique_ptr<Buffer> m_buffer;       // guarded by m_mutex
  std::optional<ProcessEnding> m_ending;  // guarded by m_mutex
  EndedBy m_ended_by = EndedBy::itself;   // guarded by m_mutex
  std::unique_ptr<ProcessWatch> m_watch;
  std::thread m_thread;
};

}  // namespace agent_run
