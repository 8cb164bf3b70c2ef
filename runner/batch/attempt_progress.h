#pragma once

#include "report/usage.h"

#include <functional>
#include <string>

namespace agent_run {

/// What a running attempt is doing, for live progress lines.
struct AttemptProgress {
  std::string phase;             // workspace | setup | agent | checks | patch | commit | cleanup
  int turn = 0;                  // model turns so far
  Usage usage = Usage::zero();   // tokens and cost so far
  std::string activity;          // the tools the model called in its last turn, if any
};

/// Where run_attempt reports its progress; called on the attempt's own thread.
using ProgressSink = std::function<void(const AttemptProgress&)>;

}  // namespace agent_run
