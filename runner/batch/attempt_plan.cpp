#include "batch/attempt_plan.h"

#include "base/digest.h"
#include "report/outcome.h"
#include "report/report_folder.h"
#include "search/glob_pattern.h"
#include "workspace/repository_discovery.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <numeric>

namespace agent_run {

namespace {

/// True when the glob `filter` (checked by check_filters_match) matches the task id `id`.
bool filter_matches(const std::string& filter, const std::string& id) {
  Expected<GlobPattern> glob = GlobPattern::compile(filter);
  return glob && glob->matches(id);
}

bool matches_filters(const std::string& id, const std::vector<std::string>& filters) {
  if (filters.empty()) return true;
  return std::any_of(filters.begin(), filters.end(),
                     [&](const std::string& filter) { return filter_matches(filter, id); });
}

Expected<void> check_filters_match(const std::vector<Task>& tasks, const std::vector<std::string>& filters) {
  for (const std::string& filter : filters) {
    if (Expected<GlobPattern> glob = GlobPattern::compile(filter); !glob)
      return make_error("--filter: " + glob.error().message);
    bool any =
        std::any_of(tasks.begin(), tasks.end(), [&](const Task& task) { return filter_matches(filter, task.id); });
    if (!any) return make_error("--filter '" + filter + "' matches no task id");
  }
  return {};
}

/// No two attempts commit to one branch: a repeated task needs `{n}` in its branch, several models `{model}`.
Expected<void> check_commit_branches(const std::vector<AttemptPlan>& plans) {
  std::map<std::string, const AttemptPlan*> branches;
  for (const AttemptPlan& plan : plans) {
    std::optional<CommitSpec> commit = commit_for(plan);
    if (!commit) continue;
    std::filesystem::path repo = plan.task->workspace.repo;
    if (repo.empty()) repo = find_enclosing_repository(plan.task->source).value_or(plan.task->source.parent_path());
    std::string repository = repo.string() + "\n" + commit->branch;
    auto [first, inserted] = branches.emplace(repository, &plan);
    if (inserted) continue;
    bool same_task = first->second->task == plan.task;
    return make_error(plan.task->source.string() + ": commit.branch '" + commit->branch + "' is also the branch of " +
                      (same_task ? "another attempt of this task" : "task '" + first->second->task->id + "'") +
                      (same_task ? "; add {n} (the repeat) or {model} to it" : "; give each task its own branch"));
  }
  return {};
}

/// The folder an in-place task works in (as the pool's lock for it finds it).
std::filesystem::path in_place_folder(const Task& task) {
  std::filesystem::path repo = task.workspace.repo;
  if (repo.empty()) repo = find_enclosing_repository(task.source).value_or(task.source.parent_path());
  return repo;
}

/// What makes several attempts share `task`'s in-place folder, as the task file and command line say it.
std::string sharing_of(const Task& task, const std::vector<const AttemptPlan*>& sharing, const PlanOptions& options) {
  std::vector<std::string> reasons;
  std::vector<std::string> models;
  int repeats = 0;
  for (const AttemptPlan* plan : sharing) {
    if (plan->task != &task) {
      std::string other = "task '" + plan->task->id + "' (" + plan->task->source.string() + ")";
      if (std::find(reasons.begin(), reasons.end(), other) == reasons.end()) reasons.push_back(other);
      continue;
    }
    if (std::find(models.begin(), models.end(), plan->model) == models.end()) models.push_back(plan->model);
    repeats = std::max(repeats, plan->n);
  }
  if (repeats > 1)
    reasons.insert(reasons.begin(), options.repeat ? "--repeat " + std::to_string(repeats) : "repeat: " + std::to_string(repeats));
  if (models.size() > 1) reasons.insert(reasons.begin(), std::to_string(models.size()) + " models");
  std::string text;
  for (const std::string& reason : reasons) text += (text.empty() ? "" : ", ") + reason;
  return text;
}

/// Setup runs outside the sandbox: no attempt's setup may run in an in-place folder that another
/// attempt of the run works in too, where it could run what an earlier attempt's agent wrote (a
/// Makefile, a test, a package script).
Expected<void> check_in_place_setup(const std::vector<AttemptPlan>& plans, const PlanOptions& options) {
  std::map<std::filesystem::path, std::vector<const AttemptPlan*>> folders;
  for (const AttemptPlan& plan : plans) {
    if (plan.task->workspace.isolation == Isolation::in_place) folders[in_place_folder(*plan.task)].push_back(&plan);
  }
  for (const auto& [folder, sharing] : folders) {
    if (sharing.size() < 2) continue;
    for (const AttemptPlan* plan : sharing) {
      const Task& task = *plan->task;
      if (task.setup.empty()) continue;
      return make_error(task.source.string() + ": 'setup' runs outside the sandbox, and the in-place workspace " +
                        folder.string() + " is worked in by " + std::to_string(sharing.size()) + " attempts (" +
                        sharing_of(task, sharing, options) +
                        "): a later attempt's setup would run code an earlier attempt's agent wrote; leave setup "
                        "out, run one attempt, or use 'isolation: worktree' or 'copy'");
    }
  }
  return {};
}

/// `text` with `{id}`, `{n}` and `{model}` replaced for `plan`.
std::string expand(std::string text, const AttemptPlan& plan) {
  std::string model;
  for (char c : plan.model)
    model += std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_' || c == '/' ? c : '-';
  const std::pair<std::string, std::string> values[] = {
      {"{id}", plan.task->id}, {"{n}", std::to_string(plan.n)}, {"{model}", model}};
  for (const auto& [placeholder, value] : values) {
    for (std::size_t at = text.find(placeholder); at != std::string::npos;
         at = text.find(placeholder, at + value.size())) {
      text.replace(at, placeholder.size(), value);
    }
  }
  return text;
}

}  // namespace

Expected<std::vector<AttemptPlan>> plan_attempts(const std::vector<Task>& tasks,
                                                 const std::vector<const Policy*>& policy_of,
                                                 const PlanOptions& options) {
  AR_TRY(check_filters_match(tasks, options.filters));
  for (auto model = options.models.begin(); model != options.models.end(); ++model) {
    if (std::find(options.models.begin(), model, *model) != model) {
      return make_error("--model '" + *model + "' is given twice");
    }
  }
  std::vector<std::size_t> order(tasks.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return tasks[a].id < tasks[b].id; });
  std::vector<AttemptPlan> plans;
  for (std::size_t i : order) {
    const Task& task = tasks[i];
    if (!matches_filters(task.id, options.filters)) continue;
    if (options.shard && shard_of(task.id, options.shard->total) != options.shard->index) continue;
    std::vector<std::string> models = options.models.empty() ? std::vector<std::string>{task.model} : options.models;
    ModelInPath model_in_path = models.size() > 1 ? ModelInPath::shown : ModelInPath::omitted;
    int repeat = options.repeat.value_or(task.repeat);
    for (const std::string& model : models) {
      for (int n = 1; n <= repeat; ++n) {
        plans.push_back(AttemptPlan{&task, policy_of[i], model, n,
                                    ReportFolder::attempt_folder(task.id, model, n, model_in_path), model_in_path});
      }
    }
  }
  AR_TRY(check_commit_branches(plans));
  AR_TRY(check_in_place_setup(plans, options));
  return plans;
}

int shard_of(const std::string& task_id, int total) {
  std::string digest = sha256_hex(task_id);
  std::uint64_t value = std::stoull(digest.substr(0, 15), nullptr, 16);
  return static_cast<int>(value % static_cast<std::uint64_t>(std::max(total, 1))) + 1;
}

AttemptResult unrun_result(const AttemptPlan& plan, OutcomeType type, std::string message) {
  AttemptResult result;
  result.task_id = plan.task->id;
  result.task_file = plan.task->source.string();
  result.task_sha256 = plan.task->source_sha256;
  result.model = plan.model;
  result.n = plan.n;
  result.usage = Usage::zero();
  result.outcome = outcome_of(type);
  result.outcome_type = type;
  result.message = std::move(message);
  return result;
}

std::string attempt_key(const AttemptPlan& plan) {
  return plan.task->id + "\n" + plan.task->source_sha256 + "\n" + plan.model + "\n" + std::to_string(plan.n);
}

std::string attempt_key(const AttemptResult& result) {
  return result.task_id + "\n" + result.task_sha256 + "\n" + result.model + "\n" + std::to_string(result.n);
}

std::optional<CommitSpec> commit_for(const AttemptPlan& plan) {
  if (!plan.task->commit) return std::nullopt;
  CommitSpec commit = *plan.task->commit;
  if (commit.message.empty()) {
    commit.message = plan.task->description.empty() ? "agent-run: {id}" : plan.task->description;
  }
  commit.branch = expand(commit.branch, plan);
  commit.message = expand(commit.message, plan);
  return commit;
}

}  // namespace agent_run
