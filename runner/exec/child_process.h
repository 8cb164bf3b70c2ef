#pragma once

#include "base/expected.h"
#include "exec/spawn.h"

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agent_run {

/// A long-lived child process: spawned in its own session and process group, with pipes to its
/// stdin, stdout and stderr that the owner reads and writes (a language server, an MCP server).
/// Destroying it kills the whole group and reaps the child, and the members of its group that the
/// runner (a child subreaper) inherits.
class ChildProcess {
 public:
  /// Spawns `argv` (argv[0] is looked up in the PATH of `environment`) in `cwd`, through spawn_child.
  static Expected<ChildProcess> spawn(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                                      const std::vector<std::string>& environment);

  ChildProcess(ChildProcess&& other) noexcept;
  ChildProcess& operator=(ChildProcess&& other) noexcept;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  ~ChildProcess();

  /// Its pid, which is also its process group's id.
  pid_t pid() const { return m_pid; }
  int stdin_fd() const { return m_stdin.get(); }    // non-blocking
  int stdout_fd() const { return m_stdout.get(); }  // non-blocking
  int stderr_fd() const { return m_stderr.get(); }  // non-blocking

  /// Writes all of `data` to stdin, waiting for room until `deadline`; false when the pipe is
  /// closed or the deadline passes first.
  bool write_all(std::string_view data, std::chrono::steady_clock::time_point deadline);
  /// Closes stdin (end of input for the child).
  void close_stdin();
  /// Waits up to `timeout` for the child to exit by itself and reaps it (and kills and reaps what it
  /// left in its group); true when it did.
  bool wait_exit(std::chrono::milliseconds timeout);
  /// Sends `signal` to the whole process group (nothing when the child was reaped already).
  void signal_group(int signal) const;
  /// Kills the whole group with SIGKILL and reaps the child.
  void kill_and_reap();
  /// How it ended, once reaped: "exited with code 1", "was killed by signal 9 (Killed)"; "" before.
  std::string exit_description() const;

 private:
  ChildProcess() = default;
  void release();
  void reap();

  pid_t m_pid = -1;
  bool m_reaped = false;
  std::optional<int> m_status;  // waitpid's status, once reaped (nullopt also when someone else reaped it)
  Fd m_stdin;
  Fd m_stdout;
  Fd m_stderr;
};

}  // namespace agent_run
