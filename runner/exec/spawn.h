#pragma once

#include "base/expected.h"
#include "exec/process.h"

#include <sys/types.h>

#include <utility>

namespace agent_run {

/// A file descriptor closed when it goes out of scope.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : m_fd(fd) {}
  Fd(Fd&& other) noexcept : m_fd(std::exchange(other.m_fd, -1)) {}
  Fd& operator=(Fd&& other) noexcept {
    reset();
    m_fd = std::exchange(other.m_fd, -1);
    return *this;
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }

  int get() const { return m_fd; }
  bool is_open() const { return m_fd >= 0; }
  void reset();

 private:
  int m_fd = -1;
};

/// A started command: its pid (also its process group and session id) and the non-blocking read
/// end of the one pipe that carries its stdout and stderr.
struct SpawnedProcess {
  pid_t pid = -1;
  Fd output;
};

/// Starts `spec` with posix_spawnp in a new session (so pid == process group == session id),
/// signals reset to their defaults, stdin from /dev/null, stdout and stderr on one pipe, every
/// other descriptor of the runner closed (they are all O_CLOEXEC). Checks the folder first.
Expected<SpawnedProcess> spawn_in_new_session(const ProcessSpec& spec);

}  // namespace agent_run
