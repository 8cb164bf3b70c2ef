#pragma once

#include "batch/attempt_plan.h"
#include "report/run_report.h"

#include <string>
#include <vector>

namespace agent_run {

/// A finished attempt of the previous run that this run does not keep, and why.
struct DroppedResult {
  AttemptResult attempt;
  std::string why;  // "its task file changed", "its task is not in this run", ...
};

/// What --resume takes over from the report a previous run left in the --out folder.
struct ResumeState {
  std::vector<AttemptResult> done;     // finished attempts that are in this run's plan: not run again
  int interrupted = 0;                 // attempts the previous run reported as interrupted: run again
  int over_budget = 0;                 // attempts it skipped when its --max-cost or --max-time was reached: run
  std::vector<DroppedResult> dropped;  // finished attempts of edited, removed or unplanned tasks
};

/// Splits a previous run's attempts by the key of attempt_key (task id and file content, model,
/// repeat index): those this run plans and the previous run finished are kept; interrupted ones,
/// those skipped for the run's budget and those of edited or unplanned tasks are dropped (and run
/// again when planned).
ResumeState resume_from(const RunReport& previous, const std::vector<AttemptPlan>& plans);

/// The plans, in order, whose attempts `held` (a report's attempts: what --resume kept) does not
/// hold: what a run will run.
std::vector<const AttemptPlan*> plans_to_run(const std::vector<AttemptPlan>& plans,
                                             const std::vector<AttemptResult>& held);

/// The folder of a dropped result, relative to the report folder, when no kept result shares it
/// and it is a plain relative path (attempts/...); empty otherwise: nothing to remove.
std::string folder_to_remove(const DroppedResult& dropped, const ResumeState& state);

}  // namespace agent_run
