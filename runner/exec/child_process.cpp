#include "exec/child_process.h"

#include "exec/own_children.h"
#include "exec/process_group.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <thread>
#include <utility>

namespace agent_run {

namespace {

constexpr std::chrono::milliseconds k_group_patience{2000};  // for the members of its group to die

}  // namespace

Expected<ChildProcess> ChildProcess::spawn(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                                           const std::vector<std::string>& environment) {
  ChildSpec spec;
  spec.argv = argv;
  spec.cwd = cwd;
  spec.environment = environment;
  spec.input = ChildInput::pipe;
  spec.output = ChildOutput::two_pipes;
  auto spawned = spawn_child(spec);
  if (!spawned) return spawned.error();
  ChildProcess child;
  child.m_pid = spawned->pid;
  child.m_stdin = std::move(spawned->input);
  child.m_stdout = std::move(spawned->output);
  child.m_stderr = std::move(spawned->errors);
  return child;
}

ChildProcess::ChildProcess(ChildProcess&& other) noexcept { *this = std::move(other); }

ChildProcess& ChildProcess::operator=(ChildProcess&& other) noexcept {
  if (this != &other) {
    release();
    m_pid = std::exchange(other.m_pid, -1);
    m_reaped = std::exchange(other.m_reaped, false);
    m_status = std::exchange(other.m_status, std::nullopt);
    m_stdin = std::move(other.m_stdin);
    m_stdout = std::move(other.m_stdout);
    m_stderr = std::move(other.m_stderr);
  }
  return *this;
}

ChildProcess::~ChildProcess() { release(); }

void ChildProcess::release() {
  if (m_pid > 0 && !m_reaped) kill_and_reap();
  m_stdin.reset();
  m_stdout.reset();
  m_stderr.reset();
  m_pid = -1;
}

namespace {

/// Blocks SIGPIPE in this thread while alive, so a write to a child that has exited fails with
/// EPIPE instead of killing the runner; a SIGPIPE raised meanwhile is consumed, not delivered.
class SigpipeBlock {
 public:
  SigpipeBlock() {
    sigemptyset(&m_pipe);
    sigaddset(&m_pipe, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &m_pipe, &m_previous);
  }
  ~SigpipeBlock() {
    timespec zero{0, 0};
    while (sigtimedwait(&m_pipe, nullptr, &zero) > 0) {
    }
    pthread_sigmask(SIG_SETMASK, &m_previous, nullptr);
  }

 private:
  sigset_t m_pipe;
  sigset_t m_previous;
};

}  // namespace

bool ChildProcess::write_all(std::string_view data, std::chrono::steady_clock::time_point deadline) {
  SigpipeBlock no_sigpipe;
  while (!data.empty()) {
    if (!m_stdin.is_open()) return false;
    ssize_t n = ::write(m_stdin.get(), data.data(), data.size());
    if (n > 0) {
      data.remove_prefix(static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) return false;  // EPIPE: the child closed it
    auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) return false;
    pollfd fd{m_stdin.get(), POLLOUT, 0};
    ::poll(&fd, 1, static_cast<int>(left));
  }
  return true;
}

void ChildProcess::close_stdin() { m_stdin.reset(); }

/// Returns as soon as the child exits (its pidfd becomes readable): `timeout` is only the upper bound.
bool ChildProcess::wait_exit(std::chrono::milliseconds timeout) {
  if (m_pid <= 0 || m_reaped) return true;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  const Fd exited(static_cast<int>(::syscall(SYS_pidfd_open, m_pid, 0)));  // -1 where the kernel has none
  for (;;) {
    siginfo_t info{};
    int rc = ::waitid(P_PID, static_cast<id_t>(m_pid), &info, WEXITED | WNOHANG | WNOWAIT);  // not reaped yet
    if (rc == 0 && info.si_pid == m_pid) {
      reap();
      return true;
    }
    if (rc < 0 && errno == ECHILD) {  // someone else reaped it
      m_reaped = true;
      forget_own_child(m_pid);
      return true;
    }
    auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) return false;
    if (exited.is_open()) {  // the exit itself wakes the wait
      pollfd fd{exited.get(), POLLIN, 0};
      ::poll(&fd, 1, static_cast<int>(left));
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(std::min<long long>(left, 10)));
    }
  }
}

void ChildProcess::signal_group(int signal) const {
  if (m_pid > 0 && !m_reaped) ::kill(-m_pid, signal);
}

void ChildProcess::kill_and_reap() {
  if (m_pid <= 0 || m_reaped) return;
  ::kill(-m_pid, SIGKILL);
  reap();
}

/// Kills what is left of its group and reaps those members the runner (a child subreaper) inherits,
/// while the leader is still held so that the group id cannot be reused; then reaps the leader.
void ChildProcess::reap() {
  // Once the leader has exited (not yet reaped), its children are the runner's: none can be left
  // behind as the zombie of a leader that is still dying.
  siginfo_t info{};
  while (::waitid(P_PID, static_cast<id_t>(m_pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR) {
  }
  kill_group_and_reap(m_pid, k_group_patience);
  int status = 0;
  pid_t done = -1;
  while ((done = ::waitpid(m_pid, &status, 0)) < 0 && errno == EINTR) {
  }
  if (done == m_pid) m_status = status;
  m_reaped = true;
  forget_own_child(m_pid);
}

std::string ChildProcess::exit_description() const {
  if (!m_status) return "";
  if (WIFEXITED(*m_status)) return "exited with code " + std::to_string(WEXITSTATUS(*m_status));
  if (WIFSIGNALED(*m_status)) {
    int signal = WTERMSIG(*m_status);
    return "was killed by signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
  }
  return "ended with status " + std::to_string(*m_status);
}

}  // namespace agent_run
