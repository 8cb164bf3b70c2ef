#pragma once

#include "base/cancellation.h"
#include "batch/batch_run.h"
#include "model/scripted_model.h"
#include "policy/policy_loader.h"
#include "support/fixtures.h"
#include "task/task_loader.h"

#include <boost/test/unit_test.hpp>

#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace agent_run::test {

/// Allows edits and the shell: the batch tests' tasks run scripted commands.
inline const char* const k_allow_all_policy = R"(version: 1
unmatched: deny
rules:
  - id: everything
    allow: [edit_file, write_file, bash]
)";

/// One event a RecordingObserver heard, with the thread it came from.
struct HeardEvent {
  std::string what;  // "started t #1", "progress t #1 agent 1", "finished t #1 passed", "run 3"
  std::thread::id thread;
};

/// An observer that records every event, and can act on progress (cancel mid-run, say).
class RecordingObserver final : public RunObserver {
 public:
  void attempt_started(const AttemptPlan& plan) override {
    add("started " + plan.task->id + " #" + std::to_string(plan.n));
  }
  void attempt_progress(const AttemptPlan& plan, const AttemptProgress& progress) override {
    add("progress " + plan.task->id + " #" + std::to_string(plan.n) + " " + progress.phase + " " +
        std::to_string(progress.turn));
    if (on_progress) on_progress(plan, progress);
  }
  void attempt_finished(const AttemptResult& result) override {
    add("finished " + result.task_id + " #" + std::to_string(result.n) + " " + to_string(result.outcome));
    if (on_finished) on_finished(result);
  }
  void run_finished(const RunReport& report) override { add("run " + std::to_string(report.attempts.size())); }

  std::vector<HeardEvent> events;
  std::function<void(const AttemptPlan&, const AttemptProgress&)> on_progress;
  std::function<void(const AttemptResult&)> on_finished;

 private:
  void add(std::string what) { events.push_back(HeardEvent{std::move(what), std::this_thread::get_id()}); }
};

/// A git repository with task files, loaded; the settings a batch run needs, with real workspaces
/// in a scratch folder of the test's own.
struct BatchFixture {
  TempFolder temp;
  std::filesystem::path repo = temp.path() / "repo";
  std::filesystem::path scratch = temp.path() / "scratch";
  std::filesystem::path out = temp.path() / "out";
  std::vector<Task> tasks;
  Policy policy;
  SystemClock clock;
  ReportFolder reports{out};
  Cancellation cancellation;
  AttemptSettings settings;

  /// `task_files` maps a file name under tasks/ to its YAML.
  explicit BatchFixture(const std::map<std::string, std::string>& task_files) {
    std::map<std::string, std::string> files = {{"greet.sh", "echo bye\n"}, {"policy.yaml", k_allow_all_policy}};
    for (const auto& [name, text] : task_files) files["tasks/" + name] = text;
    make_git_repository(repo, files);
    for (const auto& [name, text] : task_files) {
      auto task = load_task_file(repo / "tasks" / name);
      BOOST_REQUIRE_MESSAGE(task.has_value(), (task ? std::string() : task.error().message));
      tasks.push_back(std::move(*task));
    }
    auto loaded = load_policy(k_allow_all_policy, repo / "policy.yaml");
    BOOST_REQUIRE(loaded.has_value());
    policy = *loaded;
    settings.clock = &clock;
    settings.reports = &reports;
    settings.scratch_folder = scratch;
    settings.cancellation = &cancellation;
    settings.make_model = [](const Task& task, const std::string&, int,
                             std::shared_ptr<WireTransport>) -> Expected<std::unique_ptr<ModelClient>> {
      return std::unique_ptr<ModelClient>(std::make_unique<ScriptedModel>(task.script));
    };
  }

  std::vector<AttemptPlan> plans(const PlanOptions& options = {}) const {
    std::vector<const Policy*> policy_of(tasks.size(), &policy);
    auto planned = plan_attempts(tasks, policy_of, options);
    BOOST_REQUIRE_MESSAGE(planned.has_value(), (planned ? std::string() : planned.error().message));
    return *planned;
  }
};

/// A task that passes after `seconds` of sleeping in bash (a decimal such as 0.2).
inline std::string sleeping_task(const std::string& seconds) {
  return "prompt: sleep\npolicy: ../policy.yaml\nscript:\n  - call: {tool: bash, input: {command: \"sleep " + seconds +
         "\"}}\n  - say: Done.\n";
}

}  // namespace agent_run::test
