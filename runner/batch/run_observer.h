#pragma once

#include "batch/attempt_plan.h"
#include "batch/attempt_progress.h"
#include "report/run_report.h"

namespace agent_run {

/// Hears about a run's progress: the console, and tests that record events. Every call comes from
/// the run loop's thread, whatever -j is, so implementations need no locking.
/// Abstract so tests can see the order of events without parsing console text.
class RunObserver {
 public:
  virtual ~RunObserver() = default;
  virtual void attempt_started(const AttemptPlan& plan) = 0;
  /// A running attempt moved on (a phase, a model turn).
  virtual void attempt_progress(const AttemptPlan& plan, const AttemptProgress& progress) {
    (void)plan;
    (void)progress;
  }
  virtual void attempt_finished(const AttemptResult& result) = 0;
  /// Nothing happened for a while (about half a second): a chance to refresh elapsed times.
  virtual void time_passed() {}
  virtual void run_finished(const RunReport& report) = 0;
};

}  // namespace agent_run
