#include "net/interrupt_on_cancel.h"

#include "base/cancellation.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>

namespace agent_run {

InterruptOnCancel::InterruptOnCancel(const Cancellation* cancellation, HttpInterrupt& interrupt) {
  if (cancellation == nullptr || cancellation->wait_fd() < 0) return;
  m_done = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (m_done < 0) return;
  m_watcher = std::thread([cancellation, &interrupt, done = m_done] {
    pollfd fds[2] = {{cancellation->wait_fd(), POLLIN, 0}, {done, POLLIN, 0}};
    for (;;) {
      int ready = ::poll(fds, 2, -1);
      if (ready < 0 && errno == EINTR) continue;
      if (ready > 0 && (fds[0].revents & POLLIN) != 0) interrupt.interrupt();
      return;
    }
  });
}

InterruptOnCancel::~InterruptOnCancel() {
  if (m_done < 0) return;
  std::uint64_t one = 1;
  [[maybe_unused]] ssize_t written = ::write(m_done, &one, sizeof one);
  if (m_watcher.joinable()) m_watcher.join();
  ::close(m_done);
}

bool wait_unless_cancelled(const Cancellation* cancellation, std::chrono::milliseconds duration) {
  const auto until = std::chrono::steady_clock::now() + duration;
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
    if (left.count() <= 0) return true;
    if (cancellation == nullptr || cancellation->wait_fd() < 0) {
      std::this_thread::sleep_for(left);
      return true;
    }
    pollfd fd{cancellation->wait_fd(), POLLIN, 0};
    int ready = ::poll(&fd, 1, static_cast<int>(std::min<long long>(left.count(), 1 << 30)));
    if (ready > 0) return false;
  }
}

}  // namespace agent_run
