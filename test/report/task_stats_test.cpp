#include "report/sample_report.h"
#include "report/task_stats.h"

#include <boost/test/unit_test.hpp>

namespace agent_run {
namespace {

using test::sample_attempt;

AttemptResult attempt_of(const std::string& task, int n, Outcome outcome, int turns, const std::string& model = "script") {
  AttemptResult attempt = sample_attempt(task, n, outcome);
  attempt.turns = turns;
  attempt.model = model;
  return attempt;
}

RunReport report_of(std::vector<AttemptResult> attempts) {
  RunReport report;
  report.attempts = std::move(attempts);
  return report;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(task_stats_across_attempts)

// Three passed, one failed, two errors: n = 4 judged, c = 3. pass@1 = 0.75, pass@2 = 1 - C(1,2)/C(4,2) = 1,
// pass^2 = C(3,2)/C(4,2) = 0.5. Counting the errors as failures would give pass@1 = 0.5 instead.
BOOST_AUTO_TEST_CASE(errors_are_left_out_of_pass_at_k_and_counted_apart) {
  RunReport report = report_of({attempt_of("t", 1, Outcome::passed, 2), attempt_of("t", 2, Outcome::error, 0),
                                attempt_of("t", 3, Outcome::passed, 4), attempt_of("t", 4, Outcome::failed, 9),
                                attempt_of("t", 5, Outcome::error, 0), attempt_of("t", 6, Outcome::passed, 6)});
  std::vector<TaskStats> stats = task_stats(report);
  BOOST_REQUIRE_EQUAL(stats.size(), 1u);
  const TaskStats& task = stats[0];
  BOOST_TEST(task.judged() == 4);
  BOOST_TEST(task.totals.error == 2);
  BOOST_REQUIRE_EQUAL(task.pass_at_k.size(), 4u);
  BOOST_TEST(task.pass_at_k[0] == 0.75, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(task.pass_at_k[1] == 1.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(task.pass_hat_k[1] == 0.5, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(task.flaky);
  // Turns of the judged attempts 2, 4, 9, 6: mean 5.25, median 5; the errors' 0 turns are not in them.
  BOOST_TEST(*task.spreads.turns.mean == 5.25);
  BOOST_TEST(*task.spreads.turns.median == 5.0);
}

BOOST_AUTO_TEST_CASE(a_task_is_flaky_only_when_some_judged_attempts_pass_and_some_fail) {
  RunReport report = report_of({attempt_of("steady", 1, Outcome::passed, 1), attempt_of("steady", 2, Outcome::passed, 1),
                                attempt_of("broken", 1, Outcome::failed, 1), attempt_of("broken", 2, Outcome::error, 1),
                                attempt_of("mixed", 1, Outcome::failed, 1), attempt_of("mixed", 2, Outcome::passed, 1)});
  std::vector<TaskStats> stats = task_stats(report);
  BOOST_REQUIRE_EQUAL(stats.size(), 3u);
  BOOST_TEST(stats[0].task_id == "steady");
  BOOST_TEST(!stats[0].flaky);
  BOOST_TEST(!stats[1].flaky);  // a failure and an error: nothing passed
  BOOST_TEST(stats[2].flaky);
}

BOOST_AUTO_TEST_CASE(an_unpriced_attempt_makes_the_cost_spread_unknown_but_not_the_others) {
  AttemptResult unpriced = attempt_of("t", 2, Outcome::passed, 3);
  unpriced.usage.cost_usd.reset();
  RunReport report = report_of({attempt_of("t", 1, Outcome::passed, 3), unpriced});
  TaskStats task = task_stats(report).at(0);
  BOOST_TEST(!task.spreads.cost_usd.mean);
  BOOST_TEST(*task.spreads.tokens.mean == 1234.0);
}

// Model a: task x 2 of 2, task y 0 of 2, so pass@1 over tasks = (1 + 0) / 2 = 0.5 and pass@2 = 0.5;
// 4 attempts at $0.25 = $1.00 over 2 passes = $0.50 a pass. Model b: x 1 of 2 (pass@1 0.5, pass@2 1).
BOOST_AUTO_TEST_CASE(the_model_matrix_has_a_column_per_model_with_pass_at_k_over_its_tasks_and_cost_per_pass) {
  RunReport report = report_of({attempt_of("x", 1, Outcome::passed, 2, "a"), attempt_of("x", 2, Outcome::passed, 4, "a"),
                                attempt_of("y", 1, Outcome::failed, 6, "a"), attempt_of("y", 2, Outcome::failed, 8, "a"),
                                attempt_of("x", 1, Outcome::passed, 1, "b"), attempt_of("x", 2, Outcome::failed, 1, "b")});
  std::vector<ModelStats> models = model_stats(report);
  BOOST_REQUIRE_EQUAL(models.size(), 2u);
  const ModelStats& a = models[0];
  BOOST_TEST(a.model == "a");
  BOOST_TEST(a.tasks == 2);
  BOOST_TEST(a.solved == 1);
  BOOST_REQUIRE_EQUAL(a.pass_at_k.size(), 2u);
  BOOST_TEST(a.pass_at_k[0] == 0.5);
  BOOST_TEST(a.pass_at_k[1] == 0.5);
  BOOST_TEST(*a.cost_per_pass == 0.5, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(*a.turns.median == 5.0);
  const ModelStats& b = models[1];
  BOOST_TEST(b.flaky_tasks == 1);
  BOOST_TEST(b.pass_at_k[1] == 1.0);
  BOOST_TEST(*b.tokens_per_pass == 2 * 1234.0);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
