#include "batch/run_budget.h"

#include "base/duration.h"
#include "report/figures.h"

namespace agent_run {

void BudgetWatch::add(const AttemptResult& attempt) {
  std::lock_guard lock(m_mutex);
  if (attempt.usage.cost_usd) m_spent_usd += *attempt.usage.cost_usd;
  else ++m_unpriced;
}

bool BudgetWatch::time_is_up(Clock::SteadyTime now) const {
  return m_budget.max_time && elapsed_ms(m_started, now) >= m_budget.max_time->count();
}

int BudgetWatch::unpriced() const {
  std::lock_guard lock(m_mutex);
  return m_unpriced;
}

std::optional<std::string> BudgetWatch::reached(Clock::SteadyTime now) const {
  std::lock_guard lock(m_mutex);
  if (m_budget.max_cost_usd && m_spent_usd >= *m_budget.max_cost_usd) {
    return "--max-cost " + dollars(*m_budget.max_cost_usd) + ": " + dollars(m_spent_usd) + " spent";
  }
  if (time_is_up(now)) {
    return "--max-time " + format_duration(*m_budget.max_time) + ": " +
           format_duration(std::chrono::milliseconds(elapsed_ms(m_started, now))) + " passed";
  }
  return std::nullopt;
}

AttemptResult skipped_for_budget(const AttemptPlan& plan, const std::string& which) {
  return unrun_result(plan, OutcomeType::run_budget,
                      "not started: the run's budget was reached (" + which + "); agent-run --resume runs it");
}

}  // namespace agent_run
