#include "base/cancellation.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cstdint>

namespace agent_run {

static_assert(std::atomic<int>::is_always_lock_free, "cancel() must be async-signal-safe");

Cancellation::Cancellation() : m_fd(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {}

Cancellation::~Cancellation() {
  if (m_fd >= 0) ::close(m_fd);
}

void Cancellation::cancel(int signal) noexcept {
  int expected = 0;
  m_signal.compare_exchange_strong(expected, signal == 0 ? -1 : signal, std::memory_order_acq_rel);
  if (m_fd >= 0) {
    std::uint64_t one = 1;
    // The counter is never read, so it stays non-zero and the descriptor stays readable.
    [[maybe_unused]] ssize_t written = ::write(m_fd, &one, sizeof one);
  }
}

}  // namespace agent_run
