// `agent-run compare` through the built binary: its exit codes (0 noise or no flag, 1 a regression
// with --fail-on-regression, 2 unreadable input), Markdown and --json, on crafted report folders.
#include "app/cli_options.h"
#include "base/json.h"
#include "report/report_folder.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;
using namespace agent_run::test;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// Writes a report folder `name` of six tasks with four attempts each; `failing` of them fail in every attempt.
void write_run(const TempFolder& folder, const std::string& name, int failing, int flipped = 0) {
  RunReport report;
  report.runner_version = "0.1.0";
  report.started_at = "2026-12-01T10:00:00Z";
  for (int t = 1; t <= 6; ++t) {
    for (int n = 1; n <= 4; ++n) {
      AttemptResult attempt;
      attempt.task_id = "task-" + std::to_string(t);
      attempt.model = "script";
      attempt.n = n;
      bool passes = t > failing && !(t == 6 && n <= flipped);
      attempt.outcome = passes ? Outcome::passed : Outcome::failed;
      attempt.outcome_type = passes ? OutcomeType::passed : OutcomeType::check_failed;
      attempt.usage = Usage::zero();
      report.attempts.push_back(attempt);
    }
  }
  BOOST_REQUIRE(ReportFolder(folder.path() / name).write(report).has_value());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(compare_command)

BOOST_AUTO_TEST_CASE(a_regression_exits_1_only_with_fail_on_regression) {
  TempFolder folder;
  write_run(folder, "base", 0);
  write_run(folder, "head", 3);
  CommandResult plain = run_agent_run({"compare", "base", "head"}, folder.path());
  BOOST_TEST_INFO(plain.output);
  BOOST_TEST(plain.exit_code == 0);
  BOOST_TEST(contains(plain.output, "**Regression outside the noise:**"));
  BOOST_TEST(contains(plain.output, "| task-1 | 4/4 | 0/4 | newly failing |"));
  CommandResult failing = run_agent_run({"compare", "base", "head", "--fail-on-regression"}, folder.path());
  BOOST_TEST(failing.exit_code == 1);
}

BOOST_AUTO_TEST_CASE(one_repeat_flipping_exits_0_even_with_fail_on_regression) {
  TempFolder folder;
  write_run(folder, "base", 0);
  write_run(folder, "head", 0, 1);
  CommandResult result = run_agent_run({"compare", "base/report.json", "head", "--fail-on-regression"}, folder.path());
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 0);
  BOOST_TEST(contains(result.output, "| task-6 | 4/4 | 3/4 | worse | 0.500 | within the noise |"));
}

BOOST_AUTO_TEST_CASE(an_allowed_drop_exits_0) {
  TempFolder folder;
  write_run(folder, "base", 0);
  write_run(folder, "head", 3);
  CommandResult result = run_agent_run(
      {"compare", "base", "head", "--fail-on-regression", "--max-pass-rate-drop", "100%"}, folder.path());
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 0);
}

BOOST_AUTO_TEST_CASE(unreadable_input_exits_2_naming_it) {
  TempFolder folder;
  write_run(folder, "base", 0);
  folder.write("broken/report.json", "{\"schema\": \"agent-run-report/2\", \"run\": ");
  CommandResult missing = run_agent_run({"compare", "base", "nowhere", "--fail-on-regression"}, folder.path());
  BOOST_TEST(missing.exit_code == 2);
  BOOST_TEST(contains(missing.output, "'nowhere' does not exist"));
  CommandResult broken = run_agent_run({"compare", "base", "broken"}, folder.path());
  BOOST_TEST(broken.exit_code == 2);
  BOOST_TEST(contains(broken.output, "broken/report.json"));
  CommandResult one = run_agent_run({"compare", "base"}, folder.path());
  BOOST_TEST(one.exit_code == 2);
  BOOST_TEST(contains(one.output, "compare needs two reports"));
}

BOOST_AUTO_TEST_CASE(html_writes_the_comparison_as_a_page_of_its_own) {
  TempFolder folder;
  write_run(folder, "base", 0);
  write_run(folder, "head", 3);
  CommandResult result = run_agent_run({"compare", "base", "head", "--html", "compare.html"}, folder.path());
  BOOST_TEST(result.exit_code == 0);
  std::string page = folder.read("compare.html");
  BOOST_TEST(contains(page, "<h1>agent-run compare</h1>"));
  BOOST_TEST(contains(page, "<tr><td>task-1</td><td>4/4</td><td>0/4</td><td>newly failing</td>"));
  BOOST_TEST(run_shell("xmllint --noout compare.html", folder.path()).exit_code == 0);
}

BOOST_AUTO_TEST_CASE(json_output_parses_and_says_whether_it_regressed) {
  TempFolder folder;
  write_run(folder, "base", 0);
  write_run(folder, "head", 3);
  CommandResult result = run_agent_run({"compare", "base", "head", "--json", "--seed", "7"}, folder.path());
  BOOST_TEST(result.exit_code == 0);
  Expected<Json> json = parse_json(result.output);
  BOOST_REQUIRE_MESSAGE(json.has_value(), result.output);
  BOOST_TEST(json->find("regressed")->as_bool());
  BOOST_TEST(json->find("method")->find("seed")->as_int() == 7);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(nightly_example_set)

BOOST_AUTO_TEST_CASE(the_nightly_tasks_validate) {
  CommandResult result = run_shell(shell_quote(test::agent_run_binary()) + " validate tasks/nightly/*.yaml", source_root());
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 0);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(nightly_options)

BOOST_AUTO_TEST_CASE(budgets_thresholds_and_replay_options_are_parsed_and_checked) {
  auto options = parse_cli({"t.yaml", "--max-cost", "2.5", "--max-time", "90m", "--record"});
  BOOST_REQUIRE(options.has_value());
  BOOST_TEST(*options->budget.max_cost_usd == 2.5);
  BOOST_TEST(options->budget.max_time->count() == 90 * 60 * 1000);
  BOOST_TEST(options->record);
  BOOST_TEST(parse_cli({"t.yaml", "--max-cost", "0"}).error().message ==
             "--max-cost needs an amount of dollars above 0 (for example 2.50), got '0'");
  BOOST_TEST(parse_cli({"t.yaml", "--max-time", "soon"}).error().message ==
             "--max-time needs a duration such as 90s, 30m or 2h, got 'soon'");
  BOOST_TEST(parse_cli({"t.yaml", "--replay-loose"})->replay_loose);  // alone: for the tasks with model: replay
  auto compare = parse_cli({"compare", "a", "b", "--max-pass-rate-drop", "5%", "--max-cost-increase", "20", "--seed", "3"});
  BOOST_REQUIRE(compare.has_value());
  BOOST_TEST(compare->compare.max_pass_rate_drop == 0.05, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(*compare->compare.max_cost_increase == 0.20, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(compare->compare.seed == 3u);
  BOOST_TEST(parse_cli({"compare", "a", "b", "--max-cost-increase", "-1"}).error().message ==
             "--max-cost-increase needs a percentage of 0 or more (for example 5 or 5%), got '-1'");
}

BOOST_AUTO_TEST_SUITE_END()
