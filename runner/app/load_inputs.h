#pragma once

#include "base/expected.h"
#include "exec/sandbox.h"
#include "model/model_names.h"
#include "model/price_table.h"
#include "policy/policy.h"
#include "task/task.h"

#include <deque>
#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// Whether a task file without `checks:` is an error (--require-checks, `require_checks: true`) or a warning.
enum class ChecksRequired { no, yes };

/// What a run and validate check of the loaded task files beyond what each file says of itself
/// (app/input_review.h); `agent-run tool --task` leaves this out.
struct InputReviewSettings {
  const PriceTable* prices = nullptr;  // the run's price table: a model without a price is warned about
  ChecksRequired checks = ChecksRequired::no;
  bool replay_flag = false;  // --replay DIR: every attempt replays from it, the tasks' `replay:` is not read
  // The run's environment: the PATH a project gate's checker is looked for on; nullptr: not looked for.
  const std::vector<std::string>* environment = nullptr;
  // --sandbox on|off over every task's and policy's `sandbox:`: off, no program is hidden by one.
  std::optional<SandboxSpec> sandbox_flag;
};

/// Every task file of a run, and the policy that governs each, loaded and validated up front.
struct LoadedInputs {
  std::vector<Task> tasks;
  std::size_t file_tasks = 0;            // the first file_tasks of tasks come from files; the rest are -p
  std::deque<Policy> policies;           // stable addresses: plans point into it
  std::vector<const Policy*> policy_of;  // same index as tasks
  std::vector<std::string> policy_from;  // same index: who named it: --policy, FILE:LINE:COL, built-in
  std::vector<std::string> warnings;     // FILE[:LINE:COL]: warning: ..., for the console
};

/// Loads every task file over `defaults` (the run-wide configuration's), adds `ad_hoc` tasks (-p),
/// and loads every policy they use (`policy_override` first, else the task's own, else the
/// built-in policy); with `review`, reviews them too (input_review.h). Every problem in every file is reported, one per line, so a person fixes them
/// all at once; nothing runs when there is any.
Expected<LoadedInputs> load_inputs(const std::vector<std::string>& task_files,
                                   const std::optional<std::string>& policy_override,
                                   const std::vector<std::string>& model_override, const Task& defaults = Task{},
                                   std::vector<Task> ad_hoc = {}, const InputReviewSettings* review = nullptr);

}  // namespace agent_run
