#pragma once

#include "batch/attempt_plan.h"
#include "report/run_report.h"

namespace agent_run {

/// Hears about a run's progress: the console, and tests that record events.
/// Abstract so tests can see the order of events without parsing console text.
class RunObserver {
 public:
  virtual ~RunObserver() = default;
  virtual void attempt_started(const AttemptPlan& plan) = 0;
  virtual void attempt_finished(const AttemptResult& result) = 0;
  virtual void run_finished(const RunReport& report) = 0;
};

}  // namespace agent_run
