#pragma once

#include "base/expected.h"
#include "policy/policy.h"
#include "task/task.h"

#include <deque>
#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// Every task file of a run, and the policy that governs each, loaded and validated up front.
struct LoadedInputs {
  std::vector<Task> tasks;
  std::deque<Policy> policies;           // stable addresses: plans point into it
  std::vector<const Policy*> policy_of;  // same index as tasks
};

/// Loads every task file over `defaults` (the run-wide configuration's), adds `ad_hoc` tasks (-p),
/// and loads every policy they use (`policy_override` first, else the task's own, else the
/// built-in policy). Every problem in every file is reported, one per line, so a person fixes them
/// all at once; nothing runs when there is any.
Expected<LoadedInputs> load_inputs(const std::vector<std::string>& task_files,
                                   const std::optional<std::string>& policy_override,
                                   const std::vector<std::string>& model_override, const Task& defaults = Task{},
                                   std::vector<Task> ad_hoc = {});

/// An error when `model` names no model this build can run.
Expected<void> check_model_name(const std::string& model);

}  // namespace agent_run
