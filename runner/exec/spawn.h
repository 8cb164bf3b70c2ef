#pragma once

#include "base/expected.h"
#include "exec/process.h"

#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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
  /// Gives the descriptor up to the caller, who closes it.
  int release() { return std::exchange(m_fd, -1); }

 private:
  int m_fd = -1;
};

/// Where a child's stdin comes from.
enum class ChildInput { null_device, pipe };
/// Where its stdout and stderr go: one pipe for both (interleaved as written), or one pipe each.
enum class ChildOutput { one_pipe, two_pipes };

/// Every child agent-run starts, described once (bash, checks, setup, language servers, MCP
/// servers, bubblewrap, ripgrep): spawn_child is the one way to start it.
struct ChildSpec {
  std::vector<std::string> argv;                        // argv[0] is looked up in the PATH of `environment`
  std::filesystem::path cwd;                            // empty: the runner's
  std::optional<std::vector<std::string>> environment;  // KEY=VALUE; nullopt: the runner's
  ChildInput input = ChildInput::null_device;
  ChildOutput output = ChildOutput::one_pipe;
};

/// A started child: its pid (also its process group and session id) and the runner's ends of its
/// pipes, all non-blocking and close-on-exec.
struct SpawnedProcess {
  pid_t pid = -1;
  Fd output;  // the read end of stdout (and of stderr with ChildOutput::one_pipe)
  Fd errors;  // the read end of stderr with ChildOutput::two_pipes; closed otherwise
  Fd input;   // the write end of stdin with ChildInput::pipe; closed otherwise
};

/// The one spawner. Starts `spec` with posix_spawn in a new session (so pid == process group ==
/// session id), its signal mask empty and every signal at its default action (but glibc's own 32
/// and 33, which its posix_spawn leaves ignored and the child's libc handles), with descriptors
/// 0, 1 and 2 only: every other descriptor of the runner is closed in the child, those it inherited
/// from its own parent without close-on-exec included (none is passed on purpose). Records the
/// child as the runner's own (exec/own_children) before any orphan reaping can see it; whoever
/// reaps it calls forget_own_child. Checks the folder and finds the program first.
Expected<SpawnedProcess> spawn_child(const ChildSpec& spec);

/// A ProcessSpec's command as a ChildSpec: stdin from /dev/null, stdout and stderr on one pipe.
ChildSpec child_spec_of(const ProcessSpec& spec);

/// The first executable named `program` in the PATH of `environment` (KEY=VALUE entries), or
/// `program` itself when it holds a slash and is executable; nullopt when there is none.
std::optional<std::filesystem::path> find_program(std::string_view program,
                                                  const std::vector<std::string>& environment);

/// The value of `name` in `environment` (KEY=VALUE entries), or nullopt.
std::optional<std::string> environment_value(const std::vector<std::string>& environment, std::string_view name);

}  // namespace agent_run
