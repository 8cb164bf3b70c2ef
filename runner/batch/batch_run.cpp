#include "batch/batch_run.h"

namespace agent_run {

Expected<RunReport> run_batch(const std::vector<AttemptPlan>& plans, const AttemptSettings& settings,
                              RunReport report, RunObserver& observer) {
  const Clock::SteadyTime started = settings.clock->now();
  AR_TRY(settings.reports->write(report));
  for (const AttemptPlan& plan : plans) {
    observer.attempt_started(plan);
    report.attempts.push_back(run_attempt(plan, settings));
    report.duration_ms = elapsed_ms(started, settings.clock->now());
    AR_TRY(settings.reports->write(report));
    observer.attempt_finished(report.attempts.back());
  }
  observer.run_finished(report);
  return report;
}

}  // namespace agent_run
