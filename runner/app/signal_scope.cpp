#include "app/signal_scope.h"

#include <csignal>

#include <atomic>

namespace agent_run {

namespace {

// The one piece of global state: a signal handler has nowhere else to find the run.
std::atomic<Cancellation*> g_cancellation{nullptr};

extern "C" void cancel_on_signal(int signal) {
  if (Cancellation* cancellation = g_cancellation.load()) cancellation->cancel(signal);
}

void set_handler(int signal, void (*handler)(int), int flags) {
  struct sigaction action {};
  action.sa_handler = handler;
  action.sa_flags = flags;
  sigemptyset(&action.sa_mask);
  ::sigaction(signal, &action, nullptr);
}

/// Whether `signal` is ignored (a shell starts background jobs with SIGINT ignored: keep it so).
bool is_ignored(int signal) {
  struct sigaction current {};
  ::sigaction(signal, nullptr, &current);
  return current.sa_handler == SIG_IGN;
}

}  // namespace

SignalScope::SignalScope(Cancellation& cancellation) {
  g_cancellation.store(&cancellation);
  for (int signal : {SIGINT, SIGTERM}) {
    if (!is_ignored(signal)) set_handler(signal, cancel_on_signal, SA_RESETHAND | SA_RESTART);
  }
}

SignalScope::~SignalScope() {
  for (int signal : {SIGINT, SIGTERM}) {
    if (!is_ignored(signal)) set_handler(signal, SIG_DFL, 0);
  }
  g_cancellation.store(nullptr);
}

}  // namespace agent_run
