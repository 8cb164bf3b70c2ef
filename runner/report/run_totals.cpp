#include "report/run_totals.h"

#include <algorithm>

namespace agent_run {

int denied_calls(const AttemptResult& attempt) {
  return static_cast<int>(std::count_if(attempt.tool_calls.begin(), attempt.tool_calls.end(),
                                        [](const ToolCallRecord& call) { return call.decision == "denied"; }));
}

void add_to_totals(RunTotals& totals, const AttemptResult& attempt) {
  ++totals.attempts;
  switch (attempt.outcome) {
    case Outcome::passed: ++totals.passed; break;
    case Outcome::failed: ++totals.failed; break;
    case Outcome::error: ++totals.error; break;
    case Outcome::skipped: ++totals.skipped; break;
  }
  totals.usage += attempt.usage;
  totals.tool_calls += static_cast<int>(attempt.tool_calls.size());
  totals.denied += denied_calls(attempt);
  totals.duration_ms += attempt.durations.total_ms;
}

RunTotals compute_totals(const std::vector<AttemptResult>& attempts) {
  RunTotals totals;
  for (const AttemptResult& attempt : attempts) add_to_totals(totals, attempt);
  return totals;
}

}  // namespace agent_run
