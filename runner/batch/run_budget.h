#pragma once

#include "base/clock.h"
#include "batch/attempt_plan.h"
#include "report/run_report.h"

#include <chrono>
#include <mutex>
#include <optional>
#include <string>

namespace agent_run {

/// What Cancellation::signal() holds when --max-time stopped the attempts still running (no signal's number).
constexpr int k_max_time_stop = -2;

/// The limits of a whole run (--max-cost, --max-time): once one is reached, no new attempt starts.
struct RunBudget {
  std::optional<double> max_cost_usd;              // --max-cost USD: the attempts' cost added up
  std::optional<std::chrono::milliseconds> max_time;  // --max-time DURATION: since the run started
};

/// A run's spending against its budget: the workers count each finished attempt before they take
/// the next one, and ask before they start one, so no attempt starts past the budget.
class BudgetWatch {
 public:
  BudgetWatch(RunBudget budget, Clock::SteadyTime started) : m_budget(budget), m_started(started) {}

  /// Counts a finished attempt's cost (an unpriced one counts nothing and is noted).
  void add(const AttemptResult& attempt);
  /// The budget that is reached at `now`, as the skipped attempts name it (`--max-cost $1.00: $1.0312
  /// spent`); nullopt while none is.
  std::optional<std::string> reached(Clock::SteadyTime now) const;
  /// Whether --max-time has passed: what still runs is stopped.
  bool time_is_up(Clock::SteadyTime now) const;
  /// Attempts whose cost was unknown, so the cost budget could not count them.
  int unpriced() const;

 private:
  mutable std::mutex m_mutex;  // guards the sums: workers add, the run loop reads
  RunBudget m_budget;
  Clock::SteadyTime m_started;
  double m_spent_usd = 0;
  int m_unpriced = 0;
};

/// The result of a planned attempt that never started because the run's budget `which` was reached:
/// skipped, of type run.budget; --resume runs it.
AttemptResult skipped_for_budget(const AttemptPlan& plan, const std::string& which);

}  // namespace agent_run
