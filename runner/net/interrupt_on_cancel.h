#pragma once

#include "net/http_client.h"

#include <thread>

namespace agent_run {

class Cancellation;

/// While it lives, interrupts one HTTP exchange as soon as the run's cancellation fires (SIGINT,
/// SIGTERM), so a model call in flight ends at once instead of when the server finishes. A thread
/// waits on the cancellation's descriptor and on its own; the destructor wakes and joins it. With
/// no cancellation it does nothing.
class InterruptOnCancel {
 public:
  InterruptOnCancel(const Cancellation* cancellation, HttpInterrupt& interrupt);
  ~InterruptOnCancel();
  InterruptOnCancel(const InterruptOnCancel&) = delete;
  InterruptOnCancel& operator=(const InterruptOnCancel&) = delete;

 private:
  int m_done = -1;  // an eventfd: written by the destructor to end the wait
  std::thread m_watcher;
};

/// Waits `duration`, or less when `cancellation` fires first (then returns false). A null
/// cancellation waits the whole time.
bool wait_unless_cancelled(const Cancellation* cancellation, std::chrono::milliseconds duration);

}  // namespace agent_run
