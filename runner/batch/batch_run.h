#pragma once

#include "batch/run_attempt.h"
#include "batch/run_observer.h"

#include <vector>

namespace agent_run {

/// Runs the planned attempts in order, adding each result to `report` and rewriting the report
/// folder after every attempt, so a run killed at any point leaves valid reports of what finished.
/// Fails only when the reports cannot be written.
Expected<RunReport> run_batch(const std::vector<AttemptPlan>& plans, const AttemptSettings& settings,
                              RunReport report, RunObserver& observer);

}  // namespace agent_run
