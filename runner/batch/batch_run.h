#pragma once

#include "batch/run_attempt.h"
#include "batch/run_budget.h"
#include "batch/run_observer.h"

#include <vector>

namespace agent_run {

/// Runs the planned attempts that `report` does not hold yet (it may carry those --resume kept),
/// `jobs` at a time, keeping the report's attempts in plan order, appending each finished attempt to
/// the report folder's journal and rewriting its reports whole when the run's attempts have doubled
/// since they were last written, and at the end: a run killed at any point leaves valid reports,
/// which with the journal hold every attempt that finished (report_reader reads both). Only
/// this thread writes reports and calls `observer`. When the settings' cancellation fires, no new
/// attempt starts, running ones end as interrupted, and the report is marked interrupted. Fails
/// only when the reports cannot be written (after the running attempts end). When `budget` is
/// reached, no new attempt starts: running ones finish (at --max-time they are stopped through
/// `stop`, the run's cancellation, with k_max_time_stop) and every attempt not started is reported
/// skipped, of type run.budget, naming the budget.
Expected<RunReport> run_batch(const std::vector<AttemptPlan>& plans, const AttemptSettings& settings, RunReport report,
                              RunObserver& observer, int jobs = 1, const RunBudget& budget = {},
                              Cancellation* stop = nullptr);

}  // namespace agent_run
