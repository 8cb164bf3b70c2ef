#pragma once

#include "policy/policy.h"
#include "task/task.h"

#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// One attempt to run: a task, the policy that governs it, a model and a repeat index.
struct AttemptPlan {
  const Task* task = nullptr;
  const Policy* policy = nullptr;
  std::string model;
  int repeat_index = 0;  // 0-based
};

/// What the command line changes about the plan.
struct PlanOptions {
  std::vector<std::string> models;   // --model, repeatable; empty: each task's own model
  std::optional<int> repeat;         // --repeat; nullopt: each task's own repeat
};

/// Attempts = tasks x models x repeats, in a stable order (task order as given, then model, then repeat).
/// `policy_of` gives the policy governing each task (same index as `tasks`).
std::vector<AttemptPlan> plan_attempts(const std::vector<Task>& tasks, const std::vector<const Policy*>& policy_of,
                                       const PlanOptions& options);

}  // namespace agent_run
