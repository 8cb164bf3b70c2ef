#include "exec/child_reader.h"

#include "base/cancellation.h"
#include "base/text.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>

namespace agent_run {

namespace {

constexpr std::size_t k_read_chunk = 64 * 1024;

enum class ReadResult { more, end_of_file };

/// Reads what `fd` holds now into `take`, until it would block (more) or reaches its end.
template <typename Take>
ReadResult read_available(int fd, Take&& take) {
  char buffer[k_read_chunk];
  for (;;) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno == EAGAIN || errno == EWOULDBLOCK ? ReadResult::more : ReadResult::end_of_file;
    if (n == 0) return ReadResult::end_of_file;
    if (!take(std::string_view(buffer, static_cast<std::size_t>(n)))) return ReadResult::more;
  }
}

/// A descriptor that becomes readable when `pid` exits (a pidfd), or -1 where the kernel has none.
int exit_fd_of(pid_t pid) { return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)); }

}  // namespace

ChildReader::ChildReader(const ChildProcess& child, StdoutHandler on_stdout, EndHandler on_end,
                         const Cancellation* cancellation, std::size_t stderr_tail_bytes)
    : m_child(child), m_on_stdout(std::move(on_stdout)), m_on_end(std::move(on_end)), m_cancellation(cancellation),
      m_tail_limit(stderr_tail_bytes), m_wake(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)),
      m_exited(exit_fd_of(child.pid())) {
  m_thread = std::thread([this] { loop(); });
}

ChildReader::~ChildReader() { stop(); }

void ChildReader::stop() {
  if (!m_thread.joinable()) return;
  std::uint64_t one = 1;
  [[maybe_unused]] ssize_t written = ::write(m_wake.get(), &one, sizeof one);
  m_thread.join();
}

std::string ChildReader::stderr_tail() const {
  std::lock_guard lock(m_mutex);
  return tail_of(m_stderr_tail, m_tail_limit);
}

std::size_t ChildReader::stderr_bytes() const {
  std::lock_guard lock(m_mutex);
  return m_stderr_bytes;
}

void ChildReader::loop() { m_on_end(run_until_end()); }

ReadEnd ChildReader::run_until_end() {
  bool stderr_open = true;
  const int cancel_fd = m_cancellation ? m_cancellation->wait_fd() : -1;
  for (;;) {
    pollfd fds[5] = {{m_child.stdout_fd(), POLLIN, 0},
                     {stderr_open ? m_child.stderr_fd() : -1, POLLIN, 0},
                     {m_wake.get(), POLLIN, 0},
                     {cancel_fd, POLLIN, 0},
                     {m_exited.get(), POLLIN, 0}};
    if (::poll(fds, 5, -1) < 0) {
      if (errno == EINTR) continue;
      return ReadEnd::closed;
    }
    if (fds[2].revents != 0) return ReadEnd::stopped;
    if (fds[3].revents != 0) return ReadEnd::cancelled;
    if (fds[1].revents != 0) stderr_open = drain_stderr();
    if (fds[0].revents != 0) {
      bool refused = false;
      bool open = read_stdout(refused);
      if (refused) return ReadEnd::refused;
      if (!open) {
        if (stderr_open) drain_stderr();  // its last words, when it died with them
        return ReadEnd::closed;
      }
    }
    if (fds[4].revents != 0) return read_last_words();
  }
}

/// The child has exited: what it wrote before is in the pipes, read now. What it left running (a
/// child of its own holding the same pipes open) keeps them from ever reaching their end, so the
/// exit, not the end of stdout, ends the reading.
ReadEnd ChildReader::read_last_words() {
  bool refused = false;
  read_stdout(refused);
  drain_stderr();
  return refused ? ReadEnd::refused : ReadEnd::closed;
}

/// Hands stdout's bytes to the handler; false at the end of stdout. `refused` when the handler said no.
bool ChildReader::read_stdout(bool& refused) {
  ReadResult result = read_available(m_child.stdout_fd(), [&](std::string_view bytes) {
    refused = !m_on_stdout(bytes);
    return !refused;
  });
  return result == ReadResult::more;
}

/// Keeps the tail of stderr; false at its end.
bool ChildReader::drain_stderr() {
  ReadResult result = read_available(m_child.stderr_fd(), [&](std::string_view bytes) {
    std::lock_guard lock(m_mutex);
    m_stderr_bytes += bytes.size();
    m_stderr_tail.append(bytes);
    if (m_stderr_tail.size() > 2 * m_tail_limit) m_stderr_tail = tail_of(m_stderr_tail, m_tail_limit);
    return true;
  });
  return result == ReadResult::more;
}

}  // namespace agent_run
