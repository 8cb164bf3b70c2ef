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

std::vector<const AttemptPlan*> plans_to_run(const std::vector<AttemptPlan>& plans,
                                             const std::vector<AttemptResult>& held) {
  std::set<std::string> keys;
  for (const AttemptResult& attempt : held) keys.insert(attempt_key(attempt));
  std::vector<const AttemptPlan*> todo;
  for (const AttemptPlan& plan : plans) {
    if (!keys.count(attempt_key(plan))) todo.push_back(&plan);
  }
  return todo;
}

}  // namespace agent_run
