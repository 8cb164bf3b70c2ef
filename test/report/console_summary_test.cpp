#include "report/report_writers.h"
#include "report/sample_report.h"

#include <boost/test/unit_test.hpp>

namespace agent_run {

using test::sample_attempt;
using test::sample_report;

BOOST_AUTO_TEST_SUITE(console_summary)

BOOST_AUTO_TEST_CASE(passed_attempt_line_has_outcome_task_repeat_model_turns_and_time) {
  AttemptResult attempt = sample_attempt("rename-parse-config", 1, Outcome::passed);
  attempt.turns = 4;
  attempt.durations.total_ms = 1234;
  BOOST_TEST(attempt_summary_line(attempt) == "PASS  rename-parse-config #1  script  4 turns  1.2s");
}

BOOST_AUTO_TEST_CASE(failed_error_and_skipped_lines_end_with_the_type_and_message) {
  AttemptResult failed = sample_attempt("fix-bug", 1, Outcome::failed);
  failed.durations.total_ms = 800;
  BOOST_TEST(attempt_summary_line(failed) ==
             "FAIL  fix-bug #1  script  3 turns  0.8s  check.failed: python3 -m pytest -q exited 1");
  AttemptResult error = sample_attempt("fix-bug", 2, Outcome::error);
  error.turns = 1;
  BOOST_TEST(attempt_summary_line(error) ==
             "ERROR fix-bug #2  script  1 turn  1.2s  model.unavailable: model API: 529 overloaded after 4 retries");
  AttemptResult skipped = sample_attempt("fix-bug", 3, Outcome::skipped);
  skipped.turns = 0;
  skipped.durations.total_ms = 0;
  BOOST_TEST(attempt_summary_line(skipped) == "SKIP  fix-bug #3  script  0 turns  0.0s  interrupted: not in shard 2/3");
}

BOOST_AUTO_TEST_CASE(a_missing_message_leaves_no_dangling_colon) {
  AttemptResult attempt = sample_attempt("fix-bug", 1, Outcome::error);
  attempt.message = "";
  BOOST_TEST(attempt_summary_line(attempt) == "ERROR fix-bug #1  script  3 turns  1.2s  model.unavailable");
}

BOOST_AUTO_TEST_CASE(a_message_is_cut_to_its_first_line_with_controls_made_visible) {
  AttemptResult attempt = sample_attempt("fix-bug", 1, Outcome::failed);
  attempt.message = "exit\t1 \x1b[31mred\r\nsecond line";
  BOOST_TEST(attempt_summary_line(attempt) ==
             "FAIL  fix-bug #1  script  3 turns  1.2s  check.failed: exit 1 #x1B[31mred ");
}

BOOST_AUTO_TEST_CASE(long_durations_read_as_minutes_and_hours) {
  AttemptResult attempt = sample_attempt("fix-bug", 1, Outcome::passed);
  attempt.durations.total_ms = 59949;
  BOOST_TEST(attempt_summary_line(attempt) == "PASS  fix-bug #1  script  3 turns  59.9s");
  attempt.durations.total_ms = 59950;
  BOOST_TEST(attempt_summary_line(attempt) == "PASS  fix-bug #1  script  3 turns  1m00s");
  attempt.durations.total_ms = 125400;
  BOOST_TEST(attempt_summary_line(attempt) == "PASS  fix-bug #1  script  3 turns  2m05s");
  attempt.durations.total_ms = 3720000;
  BOOST_TEST(attempt_summary_line(attempt) == "PASS  fix-bug #1  script  3 turns  1h02m");
}

BOOST_AUTO_TEST_CASE(run_summary_counts_outcomes_usage_cost_and_tool_calls) {
  RunReport report = sample_report();
  report.attempts[2].tool_calls.push_back(ToolCallRecord{2, "call_9", "bash", "curl https://example.com", "denied",
                                                         "rule", "deny-net", "no network", 0, 0, true});
  BOOST_TEST(run_summary_lines(report) ==
             "4 attempts: 1 passed, 1 failed, 1 error, 1 skipped\n"
             "usage: 4936 tokens: 4000 input, 800 output, 120 cache read, 16 cache write; cost $1.0000\n"
             "tool calls: 5, 1 denied\n");
}

BOOST_AUTO_TEST_CASE(run_summary_marks_estimated_tokens_unknown_cost_and_interruption) {
  RunReport report = sample_report();
  report.attempts.resize(1);
  report.attempts[0].usage.estimated = true;
  report.attempts[0].usage.cost_usd.reset();
  report.interrupted = true;
  BOOST_TEST(run_summary_lines(report) ==
             "1 attempt: 1 passed, 0 failed, 0 errors, 0 skipped\n"
             "usage: ~1234 tokens (estimated): 1000 input, 200 output, 30 cache read, 4 cache write; cost unknown\n"
             "tool calls: 1, 0 denied\n"
             "interrupted: attempts that were running are reported as interrupted; agent-run --resume runs them "
             "and those not started\n");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
