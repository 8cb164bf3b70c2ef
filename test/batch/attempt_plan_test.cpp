#include "batch/attempt_plan.h"

#include <boost/test/unit_test.hpp>

#include <map>
#include <set>

namespace agent_run {
namespace {

Task make_task(const std::string& id, int repeat = 1) {
  Task task;
  task.id = id;
  task.source = "/project/tasks/" + id + ".yaml";
  task.source_sha256 = std::string(64, 'a');
  task.prompt = "do " + id;
  task.repeat = repeat;
  return task;
}

/// `count` tasks named task-000, task-001, ... starting at `first`.
std::vector<Task> numbered_tasks(int first, int count) {
  std::vector<Task> tasks;
  for (int i = first; i < first + count; ++i) {
    std::string number = std::to_string(i);
    tasks.push_back(make_task("task-" + std::string(3 - number.size(), '0') + number));
  }
  return tasks;
}

/// The plan of `tasks`, which must outlive it (plans point into it).
std::vector<AttemptPlan> plan(const std::vector<Task>& tasks, const PlanOptions& options = {}) {
  Policy policy;
  std::vector<const Policy*> policy_of(tasks.size(), &policy);
  auto plans = plan_attempts(tasks, policy_of, options);
  BOOST_REQUIRE_MESSAGE(plans.has_value(), (plans ? std::string() : plans.error().message));
  for (AttemptPlan& attempt : *plans) attempt.policy = nullptr;  // the local policy dies here
  return *plans;
}

std::string plan_error(const std::vector<Task>& tasks, const PlanOptions& options) {
  Policy policy;
  std::vector<const Policy*> policy_of(tasks.size(), &policy);
  auto plans = plan_attempts(tasks, policy_of, options);
  return plans ? std::string("(planned)") : plans.error().message;
}

std::vector<std::string> ids_of(const std::vector<AttemptPlan>& plans) {
  std::vector<std::string> ids;
  for (const AttemptPlan& attempt : plans) ids.push_back(attempt.task->id);
  return ids;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(attempt_plan)

BOOST_AUTO_TEST_CASE(attempts_are_tasks_by_id_then_models_then_repeats_whatever_the_file_order) {
  std::vector<Task> tasks = {make_task("zeta", 1), make_task("alpha", 2)};
  PlanOptions options;
  options.models = {"script", "other/model"};
  std::vector<AttemptPlan> plans = plan(tasks, options);
  BOOST_REQUIRE_EQUAL(plans.size(), 6u);
  std::vector<std::string> seen;
  for (const AttemptPlan& attempt : plans) {
    seen.push_back(attempt.task->id + " " + attempt.model + " " + std::to_string(attempt.n) + " " + attempt.folder);
  }
  BOOST_TEST(seen == (std::vector<std::string>{
                         "alpha script 1 attempts/alpha/script/1", "alpha script 2 attempts/alpha/script/2",
                         "alpha other/model 1 attempts/alpha/other-model/1",
                         "alpha other/model 2 attempts/alpha/other-model/2", "zeta script 1 attempts/zeta/script/1",
                         "zeta other/model 1 attempts/zeta/other-model/1"}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(one_model_keeps_the_model_out_of_the_folder_and_repeat_overrides_the_task) {
  PlanOptions options;
  options.repeat = 3;
  std::vector<Task> tasks = {make_task("only", 1)};
  std::vector<AttemptPlan> plans = plan(tasks, options);
  BOOST_REQUIRE_EQUAL(plans.size(), 3u);
  BOOST_TEST(plans[2].folder == "attempts/only/3");
  BOOST_TEST(plans[2].model == "script");
}

BOOST_AUTO_TEST_CASE(shards_of_a_hundred_tasks_partition_them_exactly) {
  std::vector<Task> tasks = numbered_tasks(0, 100);
  for (int total : {1, 2, 3, 4, 7, 16}) {
    std::map<std::string, int> shards_of_attempt;
    std::size_t attempts = 0;
    for (int index = 1; index <= total; ++index) {
      PlanOptions options;
      options.repeat = 2;
      options.shard = ShardRecord{index, total};
      std::vector<AttemptPlan> plans = plan(tasks, options);
      if (total <= 4) BOOST_TEST(!plans.empty(), "shard " << index << "/" << total << " is empty");
      attempts += plans.size();
      for (const AttemptPlan& attempt : plans) ++shards_of_attempt[attempt_key(attempt)];
    }
    BOOST_TEST(attempts == 200u, "total " << total);
    BOOST_TEST(shards_of_attempt.size() == 200u, "total " << total);
    for (const auto& [key, count] : shards_of_attempt) BOOST_TEST(count == 1, key << " in " << count << " shards");
  }
}

BOOST_AUTO_TEST_CASE(a_task_stays_in_its_shard_when_tasks_are_added) {
  std::vector<Task> before = numbered_tasks(0, 100);
  std::vector<Task> after = numbered_tasks(0, 150);
  std::rotate(after.begin(), after.begin() + 70, after.end());  // the file order changes too
  for (int index = 1; index <= 4; ++index) {
    PlanOptions options;
    options.shard = ShardRecord{index, 4};
    std::set<std::string> old_ids;
    for (const std::string& id : ids_of(plan(before, options))) old_ids.insert(id);
    std::set<std::string> new_old_ids;
    for (const std::string& id : ids_of(plan(after, options))) {
      if (id < "task-100") new_old_ids.insert(id);
    }
    BOOST_TEST(old_ids == new_old_ids, "shard " << index << "/4");
  }
}

// Every job of a CI matrix computes its own shard, on whatever machine and build it runs: the
// shard must be the same function of the id everywhere, and stay it. The expected shards are the
// docs/batch-and-nightly.md's rule computed apart from agent-run: 1 + (the first 15 hex digits of the id's SHA-256,
// as a number) mod N, e.g. python3 -c "import hashlib; print(int(hashlib.sha256(b'task-000')
// .hexdigest()[:15], 16) % 4 + 1)".
BOOST_AUTO_TEST_CASE(shard_of_is_one_fixed_function_of_the_id_alone) {
  const std::vector<std::pair<std::string, std::vector<int>>> expected = {{"task-000", {2, 2, 4, 4, 7, 12}},
                                                                          {"task-001", {1, 1, 3, 4, 3, 11}},
                                                                          {"fix-login", {1, 3, 1, 5, 2, 5}},
                                                                          {"a", {1, 1, 1, 1, 5, 13}},
                                                                          {"anything", {2, 2, 4, 3, 3, 4}}};
  const std::vector<int> totals = {2, 3, 4, 5, 7, 16};
  for (const auto& [id, shards] : expected) {
    for (std::size_t i = 0; i < totals.size(); ++i) {
      BOOST_TEST(shard_of(id, totals[i]) == shards[i], id << " of " << totals[i]);
    }
    BOOST_TEST(shard_of(id, 1) == 1);
  }
  std::vector<Task> one = {make_task("task-000")};
  std::vector<Task> other = {make_task("task-000")};  // the same id in another file, with other content
  other[0].source = "/elsewhere/t.yaml";
  other[0].prompt = "something else";
  other[0].source_sha256 = std::string(64, 'f');
  PlanOptions options;
  options.shard = ShardRecord{2, 3};
  BOOST_TEST(plan(one, options).size() == 1u);
  BOOST_TEST(plan(other, options).size() == 1u);
}

BOOST_AUTO_TEST_CASE(filters_keep_the_tasks_whose_id_matches_any_glob) {
  std::vector<Task> tasks = {make_task("fix-a"), make_task("fix-b"), make_task("rename-a"), make_task("docs")};
  PlanOptions options;
  options.filters = {"fix-*", "*-a"};
  BOOST_TEST(ids_of(plan(tasks, options)) == (std::vector<std::string>{"fix-a", "fix-b", "rename-a"}),
             boost::test_tools::per_element());
  options.filters = {"fix-?", "nothing-*"};
  BOOST_TEST(plan_error(tasks, options) == "--filter 'nothing-*' matches no task id");
}

BOOST_AUTO_TEST_CASE(filters_are_globs_of_the_one_dialect_and_a_bad_one_is_an_error) {
  std::vector<Task> tasks = {make_task("fix-a"), make_task("fix-b"), make_task("rename-a"), make_task("docs")};
  PlanOptions options;
  options.filters = {"{docs,rename-*}"};
  BOOST_TEST(ids_of(plan(tasks, options)) == (std::vector<std::string>{"docs", "rename-a"}),
             boost::test_tools::per_element());
  options.filters = {"fix-[ab"};
  BOOST_TEST(plan_error(tasks, options) == "--filter: invalid glob 'fix-[ab': a character class '[' is not closed");
}

BOOST_AUTO_TEST_CASE(two_attempts_committing_to_one_branch_are_refused_before_anything_runs) {
  Task task = make_task("refactor", 2);
  task.commit = CommitSpec{"agent/{id}", ""};
  BOOST_TEST(plan_error({task}, {}) ==
             "/project/tasks/refactor.yaml: commit.branch 'agent/refactor' is also the branch of another attempt of "
             "this task; add {n} (the repeat) or {model} to it");
  Task other = make_task("other");
  other.commit = CommitSpec{"agent/refactor", ""};
  task.repeat = 1;
  BOOST_TEST(plan_error({task, other}, {}) ==
             "/project/tasks/refactor.yaml: commit.branch 'agent/refactor' is also the branch of task 'other'; give "
             "each task its own branch");
  task.repeat = 2;
  task.commit = CommitSpec{"agent/{id}-{n}", ""};
  std::vector<Task> numbered = {task};
  BOOST_TEST(plan(numbered).size() == 2u);
}

// Issue 27 case 3: setup runs outside the sandbox, so in an in-place workspace that a second
// attempt works in, it would run what the first attempt's agent wrote (a Makefile, a test).
BOOST_AUTO_TEST_CASE(setup_in_an_in_place_workspace_several_attempts_share_is_refused_at_plan_time) {
  Task task = make_task("build", 2);
  task.workspace.repo = "/project";
  task.workspace.isolation = Isolation::in_place;
  task.setup = {"make"};
  BOOST_TEST(plan_error({task}, {}) ==
             "/project/tasks/build.yaml: 'setup' runs outside the sandbox, and the in-place workspace /project is "
             "worked in by 2 attempts (repeat: 2): a later attempt's setup would run code an earlier attempt's agent "
             "wrote; leave setup out, run one attempt, or use 'isolation: worktree' or 'copy'");
  PlanOptions two_models;
  two_models.models = {"a", "b"};
  task.repeat = 1;
  BOOST_TEST(plan_error({task}, two_models).find("worked in by 2 attempts (2 models)") != std::string::npos,
             plan_error({task}, two_models));
  PlanOptions repeated;
  repeated.repeat = 3;
  BOOST_TEST(plan_error({task}, repeated).find("worked in by 3 attempts (--repeat 3)") != std::string::npos,
             plan_error({task}, repeated));
  // Another task in the same folder, even one without setup, works there first or after.
  Task other = make_task("lint");
  other.workspace = task.workspace;
  BOOST_TEST(plan_error({task, other}, {}).find("/project/tasks/build.yaml: 'setup' runs outside the sandbox, and "
                                                "the in-place workspace /project is worked in by 2 attempts (task "
                                                "'lint' (/project/tasks/lint.yaml))") == 0u,
             plan_error({task, other}, {}));
  // The controls: one attempt with setup; several without; several with setup in their own worktrees.
  std::vector<Task> alone = {task};
  BOOST_TEST(plan(alone).size() == 1u);
  task.setup.clear();
  task.repeat = 2;
  std::vector<Task> without_setup = {task, other};
  BOOST_TEST(plan(without_setup).size() == 3u);
  task.setup = {"make"};
  task.workspace.isolation = Isolation::worktree;
  std::vector<Task> worktrees = {task};
  BOOST_TEST(plan(worktrees).size() == 2u);
}

BOOST_AUTO_TEST_CASE(commit_for_fills_the_placeholders_and_the_default_message) {
  Task task = make_task("rename");
  task.commit = CommitSpec{"agent/{id}/{model}-{n}", ""};
  PlanOptions options;
  options.models = {"anthropic/claude:x"};
  options.repeat = 2;
  std::vector<Task> tasks = {task};
  std::vector<AttemptPlan> plans = plan(tasks, options);
  std::optional<CommitSpec> commit = commit_for(plans[1]);
  BOOST_REQUIRE(commit.has_value());
  BOOST_TEST(commit->branch == "agent/rename/anthropic/claude-x-2");
  BOOST_TEST(commit->message == "agent-run: rename");
  tasks[0].description = "Rename {id} for {model}";
  BOOST_TEST(commit_for(plan(tasks)[0])->message == "Rename rename for script");
  std::vector<Task> plain = {make_task("plain")};
  BOOST_TEST(!commit_for(plan(plain)[0]).has_value());
}

BOOST_AUTO_TEST_CASE(the_attempt_key_changes_with_the_task_file_content_model_and_repeat) {
  Task task = make_task("t");
  std::vector<Task> tasks = {task};
  std::vector<AttemptPlan> first = plan(tasks, PlanOptions{{}, 2, std::nullopt, {}});
  BOOST_TEST(attempt_key(first[0]) != attempt_key(first[1]));
  std::vector<Task> edited = {task};
  edited[0].source_sha256 = std::string(64, 'b');
  BOOST_TEST(attempt_key(first[0]) != attempt_key(plan(edited)[0]));
  AttemptResult result;
  result.task_id = "t";
  result.task_sha256 = task.source_sha256;
  result.model = "script";
  result.n = 2;
  BOOST_TEST(attempt_key(result) == attempt_key(first[1]));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
