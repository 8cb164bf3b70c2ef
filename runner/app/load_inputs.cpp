#include "app/load_inputs.h"

#include "app/input_review.h"
#include "base/text.h"
#include "policy/policy_loader.h"
#include "task/task_loader.h"

#include <map>

namespace agent_run {

namespace {

/// Collects problems from many files into one error.
struct Problems {
  std::vector<std::string> lines;
  void add(const Error& error) { lines.push_back(error.message); }
  bool any() const { return !lines.empty(); }
  Error as_error() const {
    std::string text;
    for (const std::string& line : lines) text += (text.empty() ? "" : "\n") + line;
    return make_error(text);
  }
};

void check_unique_ids(const std::vector<Task>& tasks, Problems& problems) {
  std::map<std::string, const Task*> seen;
  for (const Task& task : tasks) {
    auto [it, inserted] = seen.emplace(task.id, &task);
    if (!inserted) {
      problems.add(make_error(task.source.string() + ": task id '" + task.id + "' is also the id of " +
                              it->second->source.string() + "; ids must be unique in a run"));
    }
  }
}

}  // namespace

Expected<LoadedInputs> load_inputs(const std::vector<std::string>& task_files,
                                   const std::optional<std::string>& policy_override,
                                   const std::vector<std::string>& model_override, const Task& defaults,
                                   std::vector<Task> ad_hoc, const InputReviewSettings* review) {
  LoadedInputs inputs;
  Problems problems;
  std::map<std::filesystem::path, std::string> given;  // the file itself -> as first named
  for (const std::string& file : task_files) {
    std::error_code ec;
    std::filesystem::path itself = std::filesystem::weakly_canonical(file, ec);
    if (auto [first, inserted] = given.emplace(ec ? std::filesystem::path(file) : itself, file); !inserted) {
      problems.add(make_error(file + ": this task file is given twice" +
                              (first->second == file ? std::string() : " (also as " + first->second + ")") +
                              "; name it once (--repeat N runs it N times)"));
      continue;
    }
    auto task = load_task_file(file, defaults);
    if (task) inputs.tasks.push_back(std::move(*task));
    else problems.add(task.error());
  }
  inputs.file_tasks = inputs.tasks.size();
  for (Task& task : ad_hoc) inputs.tasks.push_back(std::move(task));
  check_unique_ids(inputs.tasks, problems);
  for (const std::string& model : model_override) {
    if (auto ok = check_model_name(model); !ok) problems.add(ok.error());
  }
  std::map<std::string, const Policy*> loaded;
  auto policy_at = [&](const std::filesystem::path& path, const std::string& named_by) -> const Policy* {
    if (auto it = loaded.find(path.string()); it != loaded.end()) return it->second;
    auto policy = load_policy_file(path);
    const Policy* result = nullptr;
    if (policy) result = &inputs.policies.emplace_back(std::move(*policy));
    else problems.add(make_error(policy.error().message + "\n  (the policy named by " + named_by + ")"));
    loaded[path.string()] = result;
    return result;
  };
  const Policy* builtin = &inputs.policies.emplace_back(builtin_policy());
  for (const Task& task : inputs.tasks) {
    if (policy_override) {
      inputs.policy_of.push_back(policy_at(*policy_override, "--policy"));
      inputs.policy_from.push_back("--policy");
    } else if (task.policy) {
      auto origin = task.origins.find("policy");  // the task file, or the configuration it came from
      const std::string named_by = origin != task.origins.end() ? origin->second : task.source.string();
      inputs.policy_of.push_back(policy_at(*task.policy, named_by));
      inputs.policy_from.push_back(named_by);
    } else {
      inputs.policy_of.push_back(builtin);
      inputs.policy_from.push_back("built-in");
    }
  }
  if (review) {
    InputReview reviewed = review_inputs(inputs, model_override, *review);
    for (const std::string& problem : reviewed.problems) problems.add(make_error(problem));
    inputs.warnings = std::move(reviewed.warnings);
  }
  if (problems.any()) return problems.as_error();  // the warnings wait until the problems are fixed
  return inputs;
}

}  // namespace agent_run
