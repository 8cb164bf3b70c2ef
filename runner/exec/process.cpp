#include "exec/process.h"

#include "base/cancellation.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

extern char** environ;

namespace agent_run {

namespace {

using SteadyClock = std::chrono::steady_clock;
using TimePoint = SteadyClock::time_point;

// How long the pipe is still read after the command exits: a process that left the group
// (setsid) may hold it open forever.
constexpr std::chrono::milliseconds k_drain_after_exit{200};
// Poll tick when the kernel has no pidfd_open (Linux < 5.3).
constexpr std::chrono::milliseconds k_poll_tick{50};

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
  ~Fd() { reset(); }

  int get() const { return m_fd; }
  bool is_open() const { return m_fd >= 0; }
  void reset() {
    if (m_fd >= 0) ::close(m_fd);
    m_fd = -1;
  }

 private:
  int m_fd = -1;
};

bool is_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

/// Keeps the first and last bytes of a stream of unknown length, counting everything.
class OutputCapture {
 public:
  OutputCapture(std::size_t head_bytes, std::size_t tail_bytes)
      : m_head_capacity(head_bytes), m_tail_capacity(tail_bytes) {}

  /// Adds the next bytes of the stream.
  void append(const char* data, std::size_t size) {
    m_total += size;
    std::size_t to_head = std::min(size, m_head_capacity - m_head.size());
    m_head.append(data, to_head);
    if (to_head == size) return;
    if (!m_byte_after_head) m_byte_after_head = data[to_head];
    m_tail.append(data + to_head, size - to_head);
    if (m_tail.size() > 2 * m_tail_capacity + 65536) {
      m_tail.erase(0, m_tail.size() - m_tail_capacity);
    }
  }

  std::size_t total() const { return m_total; }

  /// Everything, or the head and tail with cap_head_tail's marker between them.
  std::string text() const {
    if (m_total <= m_head_capacity + m_tail_capacity) return m_head + m_tail;
    std::size_t head_end = m_head.size();
    auto byte_at = [&](std::size_t i) { return i < m_head.size() ? m_head[i] : *m_byte_after_head; };
    while (head_end > 0 && is_continuation(byte_at(head_end))) --head_end;
    std::size_t tail_start = m_tail.size() - m_tail_capacity;
    while (tail_start < m_tail.size() && is_continuation(m_tail[tail_start])) ++tail_start;
    std::size_t omitted = m_total - head_end - (m_tail.size() - tail_start);
    std::string out = m_head.substr(0, head_end);
    if (!out.empty() && out.back() != '\n') out += '\n';
    out += "[... " + std::to_string(omitted) + " bytes omitted ...]\n";
    out.append(m_tail, tail_start, std::string::npos);
    return out;
  }

 private:
  std::size_t m_head_capacity;
  std::size_t m_tail_capacity;
  std::string m_head;
  std::optional<char> m_byte_after_head;  // decides where the head is cut (UTF-8)
  std::string m_tail;                     // the bytes after the head; trimmed to the last ones
  std::size_t m_total = 0;
};

/// A started command: its pid (also its process group and session id) and the read end of its output.
struct Started {
  pid_t pid = -1;
  Fd output;
};

std::vector<char*> c_strings(const std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (const std::string& s : strings) pointers.push_back(const_cast<char*>(s.c_str()));
  pointers.push_back(nullptr);
  return pointers;
}

/// posix_spawnp in a new session, signals reset, stdin from /dev/null, stdout and stderr on one pipe.
Expected<Started> start(const ProcessSpec& spec) {
  const std::string& program = spec.argv.front();
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0) {
    return make_error("cannot run '" + program + "': cannot make a pipe: " + std::strerror(errno));
  }
  Fd read_end(ends[0]);
  Fd write_end(ends[1]);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, write_end.get(), 1);  // dup2 clears FD_CLOEXEC
  posix_spawn_file_actions_adddup2(&actions, write_end.get(), 2);
  if (!spec.cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, spec.cwd.c_str());

  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t none;
  sigset_t all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setsigdefault(&attributes, &all);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

  std::vector<char*> argv = c_strings(spec.argv);
  std::vector<char*> envp = spec.environment ? c_strings(*spec.environment) : std::vector<char*>{};
  pid_t pid = -1;
  int rc = ::posix_spawnp(&pid, argv[0], &actions, &attributes, argv.data(),
                          spec.environment ? envp.data() : environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (rc != 0) return make_error("cannot run '" + program + "': " + std::strerror(rc));

  ::fcntl(read_end.get(), F_SETFL, ::fcntl(read_end.get(), F_GETFL) | O_NONBLOCK);
  return Started{pid, std::move(read_end)};
}

/// Watches one started command until it has exited and its output is read: the poll loop.
class RunningProcess {
 public:
  RunningProcess(const ProcessSpec& spec, Started started, TimePoint start_time)
      : m_spec(spec),
        m_pid(started.pid),
        m_output(std::move(started.output)),
        m_pidfd(static_cast<int>(::syscall(SYS_pidfd_open, started.pid, 0))),
        m_capture(spec.output_head_bytes, spec.output_tail_bytes),
        m_start(start_time) {
    if (spec.timeout.count() > 0) m_deadline = start_time + spec.timeout;
  }

  /// Runs the loop to the end and says how it went.
  ProcessResult wait() {
    while (!done()) {
      enforce_deadlines(SteadyClock::now());
      if (done()) break;
      poll_once();
      if (!m_exited) check_exited();
    }
    if (!m_exited) {
      ::kill(-m_pid, SIGKILL);
      reap();
    }
    return result();
  }

 private:
  bool done() const { return m_exited && !m_output.is_open(); }

  /// Timeout or cancellation: SIGTERM to the group, SIGKILL after the grace; after exit, stop
  /// draining in time.
  void enforce_deadlines(TimePoint now) {
    if (!m_exited && now >= m_deadline && !m_timed_out) {
      m_timed_out = true;
      ::kill(-m_pid, SIGTERM);
      m_kill_at = std::min(m_kill_at, now + m_spec.kill_grace);
    }
    if (!m_exited && !m_cancelled && m_spec.cancellation && m_spec.cancellation->cancelled()) {
      m_cancelled = true;
      ::kill(-m_pid, SIGTERM);
      m_kill_at = std::min(m_kill_at, now + m_spec.kill_grace);
    }
    if (!m_exited && now >= m_kill_at) {
      ::kill(-m_pid, SIGKILL);
      m_kill_at = TimePoint::max();
    }
    if (m_exited && now >= m_drain_until) m_output.reset();
  }

  /// Waits for output, the exit of the command, the cancellation or the next deadline, then reads
  /// what is there.
  void poll_once() {
    pollfd fds[3];
    nfds_t count = 0;
    if (m_output.is_open()) fds[count++] = {m_output.get(), POLLIN, 0};
    if (m_pidfd.is_open() && !m_exited) fds[count++] = {m_pidfd.get(), POLLIN, 0};
    if (m_spec.cancellation && !m_cancelled && !m_exited) {
      fds[count++] = {m_spec.cancellation->wait_fd(), POLLIN, 0};
    }
    int rc = ::poll(fds, count, poll_timeout_ms());
    if (rc < 0) return;  // EINTR: the loop checks the deadlines again
    if (m_output.is_open() && fds[0].revents != 0) read_available();
  }

  /// The next moment the loop must act: the timeout, the end of the grace, or the end of draining.
  TimePoint next_deadline() const {
    if (m_exited) return m_drain_until;
    return std::min(m_timed_out ? TimePoint::max() : m_deadline, m_kill_at);
  }

  /// Milliseconds poll may sleep: until the next deadline, a tick without a pidfd, or forever (-1).
  int poll_timeout_ms() const {
    TimePoint next = next_deadline();
    bool ticking = !m_pidfd.is_open() && !m_exited;
    if (next == TimePoint::max()) return ticking ? static_cast<int>(k_poll_tick.count()) : -1;
    auto wait = std::chrono::ceil<std::chrono::milliseconds>(next - SteadyClock::now());
    if (ticking) wait = std::min(wait, k_poll_tick);
    return static_cast<int>(std::max<long long>(0, wait.count()));
  }

  void read_available() {
    char buffer[65536];
    for (;;) {
      ssize_t n = ::read(m_output.get(), buffer, sizeof buffer);
      if (n > 0) {
        m_capture.append(buffer, static_cast<std::size_t>(n));
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
      m_output.reset();  // end of file: every writer has closed it
      return;
    }
  }

  /// Peeks (WNOWAIT) whether the leader exited, so its pid, which is also the group's id, cannot be
  /// reused before what is left of the group is killed; then reaps it.
  void check_exited() {
    siginfo_t info{};
    if (::waitid(P_PID, static_cast<id_t>(m_pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0) return;
    if (info.si_pid != m_pid) return;
    ::kill(-m_pid, SIGKILL);
    reap();
    m_drain_until = SteadyClock::now() + k_drain_after_exit;
  }

  void reap() {
    while (::waitpid(m_pid, &m_status, 0) < 0 && errno == EINTR) {
    }
    m_exited = true;
  }

  ProcessResult result() {
    ProcessResult out;
    if (WIFEXITED(m_status)) out.exit_code = WEXITSTATUS(m_status);
    if (WIFSIGNALED(m_status)) out.signal = WTERMSIG(m_status);
    out.timed_out = m_timed_out;
    out.cancelled = m_cancelled;
    out.output = m_capture.text();
    out.output_bytes = m_capture.total();
    out.duration_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(SteadyClock::now() - m_start).count();
    return out;
  }

  const ProcessSpec& m_spec;
  pid_t m_pid;
  Fd m_output;
  Fd m_pidfd;  // readable when the command exits; not open on kernels before 5.3
  OutputCapture m_capture;
  TimePoint m_start;
  TimePoint m_deadline = TimePoint::max();
  TimePoint m_kill_at = TimePoint::max();
  TimePoint m_drain_until = TimePoint::max();
  bool m_timed_out = false;
  bool m_cancelled = false;
  bool m_exited = false;
  int m_status = 0;
};

}  // namespace

Expected<ProcessResult> run_process(const ProcessSpec& spec) {
  if (spec.argv.empty() || spec.argv.front().empty()) return make_error("cannot run an empty command");
  std::error_code ec;
  if (!spec.cwd.empty() && !std::filesystem::is_directory(spec.cwd, ec)) {
    return make_error("cannot run '" + spec.argv.front() + "' in '" + spec.cwd.string() +
                      "': no such folder");
  }
  if (spec.cancellation && spec.cancellation->cancelled()) {
    ProcessResult not_started;
    not_started.cancelled = true;
    return not_started;
  }
  TimePoint start_time = SteadyClock::now();
  Expected<Started> started = start(spec);
  if (!started) return started.error();
  return RunningProcess(spec, std::move(*started), start_time).wait();
}

ProcessSpec shell_command(const std::string& command, const std::filesystem::path& cwd,
                          std::chrono::milliseconds timeout) {
  ProcessSpec spec;
  spec.argv = {"/bin/sh", "-c", command};
  spec.cwd = cwd;
  spec.timeout = timeout;
  return spec;
}

}  // namespace agent_run
