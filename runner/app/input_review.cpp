#include "app/input_review.h"

#include "batch/attempt_session.h"
#include "batch/project_gate.h"
#include "model/model_names.h"
#include "model/replay_client.h"
#include "model/scripted_model.h"
#include "report/report_folder.h"
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

/// The task's repository, when it and its ref exist.
std::optional<std::filesystem::path> review_workspace(const Task& task, InputReview& review) {
  WorkspaceSpec spec = task.workspace;
  if (spec.repo.empty()) {
    auto repository = find_enclosing_repository(task.source);
    if (!repository) {
      review.problems.push_back(task.source.string() + ": no git repository holds this task file; set workspace.repo");
      return std::nullopt;
    }
    spec.repo = *repository;
  }
  auto problem = workspace_problem(spec);
  if (!problem) return spec.repo;
  const bool ref = problem->key == WorkspaceProblem::Key::ref;
  review.problems.push_back(where(task, ref ? "workspace.ref" : "workspace.repo") + ": 'workspace." +
                            (ref ? "ref" : "repo") + "': " + problem->message);
  return std::nullopt;
}

/// A project gate whose checker is not installed, looked for in the repository's folder with the
/// PATH the run gives its checks: a warning, since setup may still install it.
void review_gates(const Task& task, const std::filesystem::path& repo, const std::vector<std::string>& environment,
                  InputReview& review) {
  AttemptSettings settings;
  settings.environment = environment;
  if (auto unrunnable = unrunnable_gate(task, repo, gate_environment(task, settings))) {
    review.warnings.push_back(unrunnable->where + ": warning: " + unrunnable->why +
                              "; unless setup installs it, each attempt ends before the agent's first turn");
  }
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

/// `model: replay` needs `replay: DIR`, a folder that holds a recording of each of the task's
/// repeats in the format replay reads. Not asked when --model or --replay overrides the task.
void review_replay(const Task& task, const std::vector<std::string>& model_override, bool replay_flag,
                   InputReview& review) {
  if (!model_override.empty() || replay_flag || !is_replayed_model(task.model)) return;
  const std::string record = "record it with: agent-run " + task.source.string() + " --model PROVIDER/NAME --record --out DIR";
  if (!task.replay) {
    review.problems.push_back(where(task, "model") + ": task '" + task.id +
                              "' runs model: replay but names no recording; add 'replay: DIR', the report folder of a "
                              "run made with --record (" + record + ")");
    return;
  }
  std::error_code ec;
  if (!std::filesystem::is_directory(*task.replay, ec)) {
    review.problems.push_back(where(task, "replay") + ": 'replay': " + task.replay->string() +
                              " is not a folder; " + record);
    return;
  }
  for (int n = 1; n <= task.repeat; ++n) {
    const std::string attempt = ReportFolder::attempt_folder(task.id, task.model, n, ModelInPath::omitted);
    const std::filesystem::path file = *task.replay / attempt / "model_exchanges.jsonl";
    if (!std::filesystem::exists(file, ec)) {
      review.problems.push_back(where(task, "replay") + ": 'replay': " + task.replay->string() +
                                " holds no recording of task '" + task.id + "' #" + std::to_string(n) + " (no " +
                                attempt + "/model_exchanges.jsonl); " + record);
      return;
    }
    if (auto recording = read_recording(file); !recording) {
      review.problems.push_back(where(task, "replay") + ": 'replay': " + recording.error().message);
      return;
    }
  }
}

void review_checks(const Task& task, ChecksRequired required, InputReview& review) {
  if (!task.checks.empty()) return;
  if (required == ChecksRequired::yes) {
    review.problems.push_back(task.source.string() + ": task '" + task.id +
                              "' has no checks, and require_checks (--require-checks or agent-run.yaml) needs "
                              "them: " +
                              (task.id == "prompt" && task.source.filename() == "(-p)" ? std::string("add --check CMD")
                                                                                       : std::string("add 'checks:'")));
  } else {
    review.warnings.push_back(task.source.string() + ": warning: " + no_checks_warning(task));
  }
}

void review_prices(const Task& task, const std::vector<std::string>& model_override, const PriceTable& prices,
                   std::set<std::string>& said, InputReview& review) {
  const bool own = model_override.empty();
  for (const std::string& model : own ? std::vector<std::string>{task.model} : model_override) {
    if (is_scripted_model(model) || is_replayed_model(model) || prices.find(model)) continue;
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
    auto repo = review_workspace(task, review);
    if (repo && settings.environment) review_gates(task, *repo, *settings.environment, review);
    review_script(task, model_override, review);
    review_replay(task, model_override, settings.replay_flag, review);
  }
  return review;
}

}  // namespace agent_run
