#include "batch/resume.h"

#include <boost/test/unit_test.hpp>

namespace agent_run {
namespace {

Task make_task(const std::string& id, char content) {
  Task task;
  task.id = id;
  task.source = "tasks/" + id + ".yaml";
  task.source_sha256 = std::string(64, content);
  task.prompt = "p";
  return task;
}

AttemptResult finished(const Task& task, int n, OutcomeType outcome_type = OutcomeType::passed) {
  AttemptResult result;
  result.task_id = task.id;
  result.task_sha256 = task.source_sha256;
  result.model = "script";
  result.n = n;
  result.outcome = outcome_of(outcome_type);
  result.outcome_type = outcome_type;
  return result;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(resume)

BOOST_AUTO_TEST_CASE(finished_attempts_of_planned_unchanged_tasks_are_kept_and_the_rest_dropped) {
  Task kept = make_task("kept", 'a');
  Task edited = make_task("edited", 'b');
  Task edited_before = make_task("edited", 'c');
  Task gone = make_task("gone", 'd');
  Policy policy;
  std::vector<Task> tasks = {kept, edited};
  auto plans = plan_attempts(tasks, {&policy, &policy}, PlanOptions{{}, 2, std::nullopt, {}});
  BOOST_REQUIRE(plans.has_value());

  RunReport previous;
  previous.attempts = {finished(kept, 1), finished(kept, 2, OutcomeType::interrupted), finished(edited_before, 1),
                       finished(gone, 1), finished(kept, 1)};
  ResumeState state = resume_from(previous, *plans);
  BOOST_REQUIRE_EQUAL(state.done.size(), 1u);
  BOOST_TEST(state.done[0].task_id == "kept");
  BOOST_TEST(state.done[0].n == 1);
  BOOST_TEST(state.interrupted == 1);
  BOOST_REQUIRE_EQUAL(state.dropped.size(), 3u);  // the edited task, the task no longer planned, and a duplicate
  BOOST_TEST(state.dropped[0].attempt.task_id == "edited");
  BOOST_TEST(state.dropped[0].why == "its task file changed");
  BOOST_TEST(state.dropped[1].attempt.task_id == "gone");
  BOOST_TEST(state.dropped[1].why == "its task is not in this run");
  BOOST_TEST(state.dropped[2].why == "another result of the same attempt is kept");
}

BOOST_AUTO_TEST_CASE(a_dropped_results_folder_is_removed_unless_a_kept_result_shares_it) {
  Task kept = make_task("kept", 'a');
  Task gone = make_task("gone", 'd');
  Policy policy;
  std::vector<Task> tasks = {kept};
  auto plans = plan_attempts(tasks, {&policy}, PlanOptions{{}, 1, std::nullopt, {}});
  BOOST_REQUIRE(plans.has_value());
  RunReport previous;
  AttemptResult gone_one = finished(gone, 1);
  gone_one.transcript_path = "attempts/gone/1/transcript.jsonl";
  AttemptResult kept_one = finished(kept, 1);
  kept_one.transcript_path = "attempts/kept/1/transcript.jsonl";
  AttemptResult escaping = finished(gone, 2);
  escaping.transcript_path = "attempts/../../elsewhere/transcript.jsonl";
  previous.attempts = {gone_one, kept_one, kept_one, escaping};
  ResumeState state = resume_from(previous, *plans);
  BOOST_REQUIRE_EQUAL(state.dropped.size(), 3u);
  BOOST_TEST(folder_to_remove(state.dropped[0], state) == "attempts/gone/1");
  BOOST_TEST(folder_to_remove(state.dropped[1], state) == "");  // the kept result's own folder
  BOOST_TEST(folder_to_remove(state.dropped[2], state) == "");  // not inside attempts/
}

BOOST_AUTO_TEST_CASE(errors_count_as_finished_but_interruptions_do_not) {
  Task task = make_task("t", 'a');
  Policy policy;
  std::vector<Task> tasks = {task};
  auto plans = plan_attempts(tasks, {&policy}, PlanOptions{{}, 2, std::nullopt, {}});
  BOOST_REQUIRE(plans.has_value());
  RunReport previous;
  previous.attempts = {finished(task, 1, OutcomeType::model_unavailable), finished(task, 2, OutcomeType::interrupted)};
  ResumeState state = resume_from(previous, *plans);
  BOOST_REQUIRE_EQUAL(state.done.size(), 1u);
  BOOST_TEST((state.done[0].outcome_type == OutcomeType::model_unavailable));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
