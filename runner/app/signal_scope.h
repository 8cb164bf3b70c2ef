#pragma once

#include "base/cancellation.h"

namespace agent_run {

/// While it lives, SIGINT and SIGTERM cancel `cancellation` instead of ending the process, so the
/// run can kill its commands, write its reports and exit 130 or 143. The handler is reset by the
/// first signal (SA_RESETHAND): a second one ends agent-run at once, and the next run cleans up
/// what it left. Only one may exist at a time.
class SignalScope {
 public:
  explicit SignalScope(Cancellation& cancellation);
  ~SignalScope();
  SignalScope(const SignalScope&) = delete;
  SignalScope& operator=(const SignalScope&) = delete;
};

}  // namespace agent_run
