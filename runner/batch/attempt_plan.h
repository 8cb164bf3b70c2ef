#pragma once

#include "base/expected.h"
#include "policy/policy.h"
#include "report/report_folder.h"
#include "report/run_report.h"
#include "task/task.h"

#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// One attempt to run: a task, the policy that governs it, a model and the attempt's number.
struct AttemptPlan {
  const Task* task = nullptr;
  const Policy* policy = nullptr;
  std::string model;
  int n = 1;                                         // which repeat of the task with this model, from 1
  std::string folder;                                // its folder in the report folder: attempts/<task>/[<model>/]<n>
  ModelInPath model_in_path = ModelInPath::omitted;  // shown when the task runs with several models
};

/// What the command line changes about the plan.
struct PlanOptions {
  std::vector<std::string> models;   // --model, repeatable; empty: each task's own model
  std::optional<int> repeat;         // --repeat; nullopt: each task's own repeat
  std::optional<ShardRecord> shard;  // --shard I/N: only the tasks whose id hashes to shard I
  std::vector<std::string> filters;  // --filter, repeatable: only tasks whose id matches one glob
};

/// Attempts = tasks x models x repeats in a stable order: tasks by id (so shards and merges agree
/// whatever order the files were given in), then models in --model order, then repeats; only the
/// tasks of the shard and matching the filters. Fails, saying why, when a filter matches no task,
/// two attempts would commit to the same branch, or an in-place workspace that several attempts
/// work in (a repeat, several models or tasks) has a task with setup, which runs outside the
/// sandbox and would run what an earlier attempt's agent wrote.
Expected<std::vector<AttemptPlan>> plan_attempts(const std::vector<Task>& tasks,
                                                 const std::vector<const Policy*>& policy_of,
                                                 const PlanOptions& options);

/// The shard (1..total) of a task: a stable hash of its id alone, so a task stays in its shard
/// when others are added or removed.
int shard_of(const std::string& task_id, int total);

/// What identifies an attempt across runs, for --resume: the task's id and file content (an edited
/// task runs again), the model and the repeat index.
/// The result of a planned attempt that never ran (skipped for the run's budget, or its run threw):
/// who it was, an outcome of `type`, no usage, and `message`.
AttemptResult unrun_result(const AttemptPlan& plan, OutcomeType type, std::string message);

std::string attempt_key(const AttemptPlan& plan);
std::string attempt_key(const AttemptResult& result);

/// The task's `commit:` for this attempt with `{id}`, `{n}` and `{model}` replaced and the default
/// message filled in; nullopt when the task has no `commit:`.
std::optional<CommitSpec> commit_for(const AttemptPlan& plan);

}  // namespace agent_run
