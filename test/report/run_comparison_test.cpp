#include "report/comparison_text.h"
#include "report/run_comparison.h"
#include "report/sample_report.h"
#include "report/significance.h"

#include <boost/test/unit_test.hpp>

namespace agent_run {
namespace {

using test::sample_attempt;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// A run of `tasks` tasks t01, t02, ... of five attempts each; `passes(task, n)` says which pass.
template <typename Passes>
RunReport crafted_run(int tasks, Passes passes, double cost = 0.25) {
  RunReport report;
  for (int t = 1; t <= tasks; ++t) {
    std::string id = std::string("t") + (t < 10 ? "0" : "") + std::to_string(t);
    for (int n = 1; n <= 5; ++n) {
      AttemptResult attempt = sample_attempt(id, n, passes(t, n) ? Outcome::passed : Outcome::failed);
      attempt.usage.cost_usd = cost;
      report.attempts.push_back(attempt);
    }
  }
  return report;
}

RunComparison compared(const RunReport& base, const RunReport& head, CompareSettings settings = {}) {
  auto comparison = compare_runs(base, head, settings);
  BOOST_REQUIRE_MESSAGE(comparison.has_value(), (comparison ? "" : comparison.error().message));
  return *comparison;
}

const TaskComparison& task_named(const RunComparison& comparison, const std::string& key) {
  for (const TaskComparison& task : comparison.tasks) {
    if (task.key == key) return task;
  }
  BOOST_FAIL("no task " + key);
  return comparison.tasks.front();
}

auto all_pass = [](int, int) { return true; };

}  // namespace

BOOST_AUTO_TEST_SUITE(run_comparison)

// Hand-computed: 5/5 against 0/5 is the most extreme of the C(10,5) = 252 tables with five passes: p = 1/252.
// 5/5 against 4/5: nine passes, the head holds four or five of them: P(X <= 4) = C(9,4)/C(10,5) = 126/252.
BOOST_AUTO_TEST_CASE(fishers_exact_test_matches_the_hypergeometric_tail_computed_by_hand) {
  BOOST_TEST(fisher_worse_p(5, 5, 0, 5) == 1.0 / 252, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(fisher_worse_p(5, 5, 4, 5) == 0.5, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(fisher_better_p(0, 5, 5, 5) == 1.0 / 252, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(fisher_worse_p(1, 1, 0, 1) == 0.5, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(fisher_worse_p(0, 0, 0, 5) == 1.0);
}

// Four of twelve: a resample draws none of them with chance (8/12)^12 = 0.8%, so the whole 95%
// interval is a drop (with three, (9/12)^12 = 3.2% of resamples see no drop, and the interval reaches 0).
BOOST_AUTO_TEST_CASE(four_tasks_that_stop_passing_are_a_regression_per_task_and_overall) {
  RunReport base = crafted_run(12, all_pass);
  RunReport head = crafted_run(12, [](int t, int) { return t > 4; });
  RunComparison comparison = compared(base, head);
  BOOST_TEST(comparison.regressed());
  const TaskComparison& t01 = task_named(comparison, "t01");
  BOOST_TEST(t01.change == "newly failing");
  BOOST_TEST(t01.regression);
  BOOST_TEST(task_named(comparison, "t04").regression);
  BOOST_TEST(!task_named(comparison, "t05").regression);
  const MetricChange& rate = comparison.metrics.at(0);
  BOOST_TEST(rate.name == "pass_rate");
  BOOST_TEST(*rate.change == -1.0 / 3, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(rate.regression);  // the whole interval is a drop
  BOOST_TEST(rate.interval->high < 0);
  BOOST_TEST(comparison.regressions.size() == 5u);  // the pass rate and four tasks
}

BOOST_AUTO_TEST_CASE(one_of_five_repeats_flipping_is_noise_and_not_a_regression) {
  RunReport base = crafted_run(12, all_pass);
  RunReport head = crafted_run(12, [](int t, int n) { return !(t == 7 && n == 2); });
  RunComparison comparison = compared(base, head);
  BOOST_TEST(!comparison.regressed());
  const TaskComparison& t07 = task_named(comparison, "t07");
  BOOST_TEST(t07.change == "worse");
  BOOST_TEST(t07.p_worse == 0.5, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(!t07.regression);
  const MetricChange& rate = comparison.metrics.at(0);
  BOOST_TEST(rate.interval->low < *rate.change);
  BOOST_TEST(rate.interval->high >= 0.0);  // zero change lies inside: noise
  std::string text = comparison_markdown(comparison, "base", "head");
  BOOST_TEST(contains(text, "**No regression outside the noise.**"));
  BOOST_TEST(contains(text, "| t07 | 5/5 | 4/5 | worse | 0.500 | within the noise |"));
  BOOST_TEST(contains(text, "5000 resamples, seed 1"));
  BOOST_TEST(contains(text, "11 of 12 tasks in both runs passed as often in each."));
}

BOOST_AUTO_TEST_CASE(a_drop_within_the_allowed_points_is_not_a_regression) {
  RunReport base = crafted_run(12, all_pass);
  RunReport head = crafted_run(12, [](int t, int) { return t > 4; });
  CompareSettings settings;
  settings.max_pass_rate_drop = 1.0;  // any drop is allowed: three tasks from 5/5 to 0/5 as well
  RunComparison comparison = compared(base, head, settings);
  BOOST_TEST(!comparison.regressed());
  // 5/5 to 0/5 is no noise (p = 1/252): it is said to be allowed, not "within the noise".
  std::string text = comparison_markdown(comparison, "base", "head");
  BOOST_TEST(contains(text, "| t01 | 5/5 | 0/5 | newly failing | 0.004 | a real drop, within the allowed one "
                            "(--max-pass-rate-drop) |"),
             text);
}

BOOST_AUTO_TEST_CASE(a_regression_names_the_allowed_drop_without_a_sign) {
  RunComparison comparison = compared(crafted_run(12, all_pass), crafted_run(12, [](int t, int) { return t > 4; }));
  BOOST_REQUIRE(!comparison.regressions.empty());
  BOOST_TEST(comparison.regressions.front().ends_with(": beyond the allowed drop of 0.0 points"),
             comparison.regressions.front());
}

BOOST_AUTO_TEST_CASE(tasks_that_start_passing_are_an_improvement_and_no_regression) {
  RunReport base = crafted_run(12, [](int t, int) { return t > 4; });
  RunReport head = crafted_run(12, all_pass);
  RunComparison comparison = compared(base, head);
  BOOST_TEST(!comparison.regressed());
  const TaskComparison& t02 = task_named(comparison, "t02");
  BOOST_TEST(t02.change == "newly passing");
  BOOST_TEST(t02.improvement);
  BOOST_TEST(comparison.metrics.at(0).interval->low > 0);
  std::string text = comparison_markdown(comparison, "a", "b");
  BOOST_TEST(contains(text, "| t02 | 0/5 | 5/5 | newly passing | 0.004 | **improvement** |"), text);
}

BOOST_AUTO_TEST_CASE(errors_are_left_out_of_the_pass_rates_compared) {
  RunReport base = crafted_run(2, all_pass);
  RunReport head = crafted_run(2, all_pass);
  for (AttemptResult& attempt : head.attempts) {
    if (attempt.task_id == "t01" && attempt.n <= 3) attempt.outcome = Outcome::error;
  }
  RunComparison comparison = compared(base, head);
  const TaskComparison& t01 = task_named(comparison, "t01");
  BOOST_TEST(t01.head_judged == 2);
  BOOST_TEST(t01.head_errors == 3);
  BOOST_TEST(t01.change == "same");
  BOOST_TEST(*comparison.metrics.at(0).change == 0.0);
  BOOST_TEST(!comparison.regressed());
}

BOOST_AUTO_TEST_CASE(a_cost_rise_is_checked_only_against_a_threshold_the_user_sets) {
  RunReport base = crafted_run(12, all_pass, 0.10);
  RunReport head = crafted_run(12, all_pass, 0.20);
  BOOST_TEST(!compared(base, head).regressed());
  CompareSettings settings;
  settings.max_cost_increase = 0.5;
  RunComparison comparison = compared(base, head, settings);
  const MetricChange& cost = comparison.metrics.at(1);
  BOOST_TEST(cost.name == "cost_per_attempt_usd");
  BOOST_TEST(*cost.change == 1.0, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(cost.regression);
  BOOST_TEST(comparison.regressed());
  settings.max_cost_increase = 1.5;
  BOOST_TEST(!compared(base, head, settings).regressed());
}

BOOST_AUTO_TEST_CASE(the_same_seed_gives_the_same_interval) {
  RunReport base = crafted_run(12, [](int t, int n) { return (t + n) % 3 != 0; });
  RunReport head = crafted_run(12, [](int t, int n) { return (t * n) % 4 != 0; });
  for (std::size_t i = 0; i < head.attempts.size(); ++i) head.attempts[i].usage.cost_usd = 0.1 + 0.01 * double(i * 7 % 11);
  RunComparison first = compared(base, head);
  RunComparison again = compared(base, head);
  for (std::size_t m = 0; m < first.metrics.size(); ++m) {
    BOOST_TEST(first.metrics[m].interval->low == again.metrics[m].interval->low);
    BOOST_TEST(first.metrics[m].interval->high == again.metrics[m].interval->high);
  }
  CompareSettings other;
  other.seed = 99;
  const MetricChange& cost = first.metrics.at(1);  // varied costs: another seed draws another interval
  BOOST_TEST(compared(base, head, other).metrics.at(1).interval->low != cost.interval->low);
}

BOOST_AUTO_TEST_CASE(tasks_in_only_one_run_are_listed_not_compared) {
  RunReport base = crafted_run(3, all_pass);
  RunReport head = crafted_run(4, all_pass);
  head.attempts.erase(head.attempts.begin(), head.attempts.begin() + 5);  // no t01 in the head
  RunComparison comparison = compared(base, head);
  BOOST_TEST(comparison.tasks.size() == 2u);
  BOOST_TEST(comparison.only_in_base == std::vector<std::string>{"t01"}, boost::test_tools::per_element());
  BOOST_TEST(comparison.only_in_head == std::vector<std::string>{"t04"}, boost::test_tools::per_element());
  std::string text = comparison_markdown(comparison, "a", "b");
  BOOST_TEST(contains(text, "Only in the base run (not compared): t01\n"));
  BOOST_TEST(contains(text, "Only in the head run (not compared): t04\n"));
}

BOOST_AUTO_TEST_CASE(runs_of_one_model_each_pair_by_task_and_mismatched_model_sets_are_refused) {
  RunReport base = crafted_run(2, all_pass);
  RunReport head = crafted_run(2, all_pass);
  for (AttemptResult& attempt : head.attempts) attempt.model = "script/variant-b";
  BOOST_TEST(compared(base, head).tasks.size() == 2u);
  head.attempts.front().model = "other";
  auto refused = compare_runs(base, head, {});
  BOOST_REQUIRE(!refused.has_value());
  BOOST_TEST(contains(refused.error().message, "compare runs of one model each, or of the same models"));
}

BOOST_AUTO_TEST_CASE(the_json_names_the_method_and_every_task) {
  RunComparison comparison = compared(crafted_run(2, all_pass), crafted_run(2, all_pass));
  std::string json = comparison_to_json(comparison, "a", "b").dump();
  BOOST_TEST(contains(json, "\"schema\":\"agent-run-compare/1\""));
  BOOST_TEST(contains(json, "\"seed\":1"));
  BOOST_TEST(contains(json, "\"task\":\"t02\""));
  BOOST_TEST(contains(json, "\"regressed\":false"));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
