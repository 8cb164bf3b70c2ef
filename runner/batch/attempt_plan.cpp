#include "batch/attempt_plan.h"

namespace agent_run {

std::vector<AttemptPlan> plan_attempts(const std::vector<Task>& tasks, const std::vector<const Policy*>& policy_of,
                                       const PlanOptions& options) {
  std::vector<AttemptPlan> plans;
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    const Task& task = tasks[i];
    std::vector<std::string> models = options.models.empty() ? std::vector<std::string>{task.model} : options.models;
    int repeat = options.repeat.value_or(task.repeat);
    for (const std::string& model : models) {
      for (int r = 0; r < repeat; ++r) {
        plans.push_back(AttemptPlan{&task, policy_of[i], model, r});
      }
    }
  }
  return plans;
}

}  // namespace agent_run
