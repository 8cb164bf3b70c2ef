#pragma once

#include "report/run_report.h"
#include "report/usage.h"

#include <vector>

namespace agent_run {

/// Counts and sums over a set of attempts, always recomputed from the attempts themselves.
struct RunTotals {
  int attempts = 0;
  int passed = 0;
  int failed = 0;
  int error = 0;
  int skipped = 0;
  Usage usage = Usage::zero();  // cost unknown as soon as one attempt's cost is unknown
  int tool_calls = 0;
  int denied = 0;
  long long duration_ms = 0;  // sum of the attempts' total durations
};

/// The totals of `attempts`.
RunTotals compute_totals(const std::vector<AttemptResult>& attempts);

/// Counts `attempt` into `totals`.
void add_to_totals(RunTotals& totals, const AttemptResult& attempt);

/// Number of tool calls the policy denied in `attempt`.
int denied_calls(const AttemptResult& attempt);

}  // namespace agent_run
