#include "batch/resume.h"

#include <set>

namespace agent_run {

ResumeState resume_from(const RunReport& previous, const std::vector<AttemptPlan>& plans) {
  std::set<std::string> planned;
  for (const AttemptPlan& plan : plans) planned.insert(attempt_key(plan));
  ResumeState state;
  std::set<std::string> kept;
  for (const AttemptResult& attempt : previous.attempts) {
    std::string key = attempt_key(attempt);
    if (attempt.outcome_type == OutcomeType::interrupted) {
      ++state.interrupted;
    } else if (attempt.outcome_type == OutcomeType::run_budget) {
      ++state.over_budget;
    } else if (!planned.count(key) || !kept.insert(key).second) {
      ++state.stale;
    } else {
      state.done.push_back(attempt);
    }
  }
  return state;
}

}  // namespace agent_run
