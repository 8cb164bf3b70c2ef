#include "exec/process_watch.h"

#include "exec/own_children.h"

#include "base/cancellation.h"
#include "exec/process_group.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdint>

namespace agent_run {

namespace {

using SteadyClock = std::chrono::steady_clock;

// How long the pipe is still read after the command exits: a process that left the group
// (setsid) may hold it open forever.
constexpr std::chrono::milliseconds k_drain_after_exit{200};
// Poll tick when the kernel has no pidfd_open (Linux < 5.3).
constexpr std::chrono::milliseconds k_poll_tick{50};
// How long the members of an exited command's group get to die before the runner stops reaping.
constexpr std::chrono::milliseconds k_group_reap_patience{1000};

}  // namespace

ProcessWatch::ProcessWatch(SpawnedProcess process, TimePoint deadline, std::chrono::milliseconds kill_grace,
                           OutputSink& sink, const Cancellation* cancellation)
    : m_pid(process.pid), m_output(std::move(process.output)),
      m_pidfd(static_cast<int>(::syscall(SYS_pidfd_open, process.pid, 0))),
      m_wake(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)), m_cancellation(cancellation), m_kill_grace(kill_grace),
      m_sink(sink), m_start(SteadyClock::now()), m_deadline(deadline) {}

void ProcessWatch::request_stop() {
  m_stop_requested = true;
  std::uint64_t one = 1;
  if (m_wake.is_open()) (void)!::write(m_wake.get(), &one, sizeof one);
}

ProcessEnding ProcessWatch::run() {
  while (!done()) {
    enforce_deadlines(SteadyClock::now());
    if (done()) break;
    poll_once();
    if (!m_exited) check_exited();
  }
  if (!m_exited) {
    kill_group_and_reap(m_pid, k_group_reap_patience);
    reap();
  }
  return ending();
}

/// Timeout, stop or cancellation: SIGTERM to the group, SIGKILL after the grace; after exit, stop
/// draining in time.
void ProcessWatch::enforce_deadlines(TimePoint now) {
  bool stop = m_stop_requested.load();
  bool cancel = m_cancellation && m_cancellation->cancelled();
  if (!m_exited && !m_terminating && (now >= m_deadline || stop || cancel)) {
    m_terminating = true;
    m_stopped = stop;
    m_cancelled = cancel && !stop;
    m_timed_out = !stop && !cancel;
    ::kill(-m_pid, SIGTERM);
    m_kill_at = now + m_kill_grace;
  }
  if (!m_exited && now >= m_kill_at) {
    ::kill(-m_pid, SIGKILL);
    m_kill_at = TimePoint::max();
  }
  if (m_exited && now >= m_drain_until) m_output.reset();
}

/// Waits for output, the exit of the process, a stop request, the cancellation or the next deadline,
/// then reads.
void ProcessWatch::poll_once() {
  pollfd fds[4];
  nfds_t count = 0;
  int output_index = -1;
  if (m_output.is_open()) {
    output_index = static_cast<int>(count);
    fds[count++] = {m_output.get(), POLLIN, 0};
  }
  if (m_pidfd.is_open() && !m_exited) fds[count++] = {m_pidfd.get(), POLLIN, 0};
  if (m_wake.is_open() && !m_terminating && !m_exited) fds[count++] = {m_wake.get(), POLLIN, 0};
  if (m_cancellation && m_cancellation->wait_fd() >= 0 && !m_terminating && !m_exited) {
    fds[count++] = {m_cancellation->wait_fd(), POLLIN, 0};
  }
  int rc = ::poll(fds, count, poll_timeout_ms());
  if (rc < 0) return;  // EINTR: the loop checks the deadlines again
  if (output_index >= 0 && fds[output_index].revents != 0) read_available();
}

/// Milliseconds poll may sleep: until the next deadline, a tick without a pidfd, or forever (-1).
int ProcessWatch::poll_timeout_ms() const {
  TimePoint next = m_exited ? m_drain_until : (m_terminating ? m_kill_at : m_deadline);
  bool ticking = !m_pidfd.is_open() && !m_exited;
  if (next == TimePoint::max()) return ticking ? static_cast<int>(k_poll_tick.count()) : -1;
  auto wait = std::chrono::ceil<std::chrono::milliseconds>(next - SteadyClock::now());
  if (ticking) wait = std::min(wait, k_poll_tick);
  return static_cast<int>(std::max<long long>(0, wait.count()));
}

void ProcessWatch::read_available() {
  char buffer[65536];
  for (;;) {
    ssize_t n = ::read(m_output.get(), buffer, sizeof buffer);
    if (n > 0) {
      m_sink.append(std::string_view(buffer, static_cast<std::size_t>(n)));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
    m_output.reset();  // end of file: every writer has closed it
    return;
  }
}

/// Peeks (WNOWAIT) whether the leader exited, so its pid, which is also the group's id, cannot be
/// reused before what is left of the group is killed and reaped; then reaps the leader.
void ProcessWatch::check_exited() {
  siginfo_t info{};
  if (::waitid(P_PID, static_cast<id_t>(m_pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0) return;
  if (info.si_pid != m_pid) return;
  kill_group_and_reap(m_pid, k_group_reap_patience);
  reap();
  m_drain_until = SteadyClock::now() + k_drain_after_exit;
}

void ProcessWatch::reap() {
  while (::waitpid(m_pid, &m_status, 0) < 0 && errno == EINTR) {
  }
  forget_own_child(m_pid);
  m_exited = true;
}

ProcessEnding ProcessWatch::ending() const {
  ProcessEnding out;
  if (WIFEXITED(m_status)) out.exit_code = WEXITSTATUS(m_status);
  if (WIFSIGNALED(m_status)) out.signal = WTERMSIG(m_status);
  out.timed_out = m_timed_out;
  out.stopped = m_stopped;
  out.cancelled = m_cancelled;
  out.duration_ms = std::chrono::duration_cast<std::chrono::milliseconds>(SteadyClock::now() - m_start).count();
  return out;
}

}  // namespace agent_run
