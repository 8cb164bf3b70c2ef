#include "app/input_review.h"

#include "model/scripted_model.h"
#include "task/task_loader.h"
#include "workspace/repository_discovery.h"
#include "workspace/workspace_problem.h"

#include <algorithm>
#include <set>

namespace agent_run {

namespace {

/// `FILE:LINE:COL` where `setting` was set, else the task file.
std::string where(const Task& task, const std::string& setting) {
  auto origin = task.origins.find(setting);
  return origin != task.origins.end() ? origin->second : task.source.string();
}

void review_workspace(const Task& task, InputReview& review) {
  WorkspaceSpec spec = task.workspace;
  if (spec.repo.empty()) {
    auto repository = find_enclosing_repository(task.source);
    if (!repository) {
      review.problems.push_back(task.source.string() + ": no git repository holds this task file; set workspace.repo");
      return;
    }
    spec.repo = *repository;
  }
  auto problem = workspace_problem(spec);
  if (!problem) return;
  const bool ref = problem->key == WorkspaceProblem::Key::ref;
  review.problems.push_back(where(task, ref ? "workspace.ref" : "workspace.repo") + ": 'workspace." +
                            (ref ? "ref" : "repo") + "': " + problem->message);
}

void review_script(const Task& task, const std::vector<std::string>& model_override, InputReview& review) {
  bool scripted = model_override.empty()
                      ? is_scripted_model(task.model)
                      : std::any_of(model_override.begin(), model_override.end(), is_scripted_model);
  if (!scripted || !task.script.empty()) return;
  std::string how = !model_override.empty()        ? "--model script"
                    : task.origins.count("model") ? "model: script"
                                                   : "no 'model:', so the scripted model";
  review.problems.push_back(where(task, "model") + ": task '" + task.id + "' runs the scripted model (" + how +
                            ") but has no 'script:'; add the turns it plays, or set model: PROVIDER/NAME");
}

void review_checks(const Task& task, ChecksRequired required, InputReview& review) {
  if (!task.checks.empty()) return;
  if (required == ChecksRequired::yes) {
    review.problems.push_back(task.source.string() + ": task '" + task.id +
                              "' has no checks, and require_checks (--require-checks or agent-run.yaml) needs "
                              "them: add 'checks:'");
  } else {
    review.warnings.push_back(task.source.string() + ": warning: " + no_checks_warning(task));
  }
}

void review_prices(const Task& task, const std::vector<std::string>& model_override, const PriceTable& prices,
                   std::set<std::string>& said, InputReview& review) {
  const bool own = model_override.empty();
  for (const std::string& model : own ? std::vector<std::string>{task.model} : model_override) {
    if (is_scripted_model(model) || prices.find(model)) continue;
    std::string at = own ? where(task, "model") : "--model " + model;
    if (!said.insert(at).second) continue;
    review.warnings.push_back(at + ": warning: the price table (version " + prices.version + ", " + prices.file +
                              ") has no price for '" + model +
                              "': its cost is reported as unknown; give one with --prices FILE");
  }
}

}  // namespace

InputReview review_inputs(const LoadedInputs& inputs, const std::vector<std::string>& model_override,
                          const InputReviewSettings& settings) {
  InputReview review;
  std::set<std::string> said;
  for (std::size_t i = 0; i < inputs.tasks.size(); ++i) {
    const Task& task = inputs.tasks[i];
    review.warnings.insert(review.warnings.end(), task.warnings.begin(), task.warnings.end());
    if (settings.prices) review_prices(task, model_override, *settings.prices, said, review);
    review_checks(task, settings.checks, review);
    if (i >= inputs.file_tasks) continue;  // the -p task: its folder was checked, it has no script
    review_workspace(task, review);
    review_script(task, model_override, review);
  }
  return review;
}

}  // namespace agent_run
