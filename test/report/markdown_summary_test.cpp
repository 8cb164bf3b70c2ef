#include "report/markdown_summary.h"

#include "report/sample_report.h"

#include <boost/test/unit_test.hpp>

#include <sstream>
#include <string>

namespace agent_run {

using namespace std::string_literals;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// How often `part` appears not escaped (not after a backslash).
std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
    if (at == 0 || text[at - 1] != '\\') ++count;
  }
  return count;
}

Problem problem(const std::string& path, int line, const std::string& message, const std::string& code) {
  return Problem{path, line, 5, "error", message, code, false};
}

/// An edit whose diagnostics introduced `introduced` and resolved `resolved`.
EditRecord edit_with(std::vector<Problem> introduced, std::vector<Problem> resolved = {}) {
  EditDiagnostics diagnostics;
  diagnostics.checker = "pyflakes";
  diagnostics.status = introduced.empty() ? "clean" : "problems";
  diagnostics.problems = introduced;
  diagnostics.introduced = std::move(introduced);
  diagnostics.resolved = std::move(resolved);
  diagnostics.compared = true;
  return EditRecord{2, "call_2", "edit_file", "src/a.py", 1, 1, diagnostics};
}

ToolCallRecord denied_call(const std::string& rule, const std::string& input) {
  return ToolCallRecord{1, "call_9", "bash", input, "denied", "rule", rule, "no network", 0, 0, true};
}

/// Every table row is whole: a line that starts a row also ends it.
bool rows_are_whole(const std::string& markdown) {
  std::istringstream lines(markdown);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("|") && !line.ends_with("|")) return false;
  }
  return true;
}

/// Every code fence that opens closes (CommonMark: with a line of at least as many backticks and
/// nothing else).
bool fences_balance(const std::string& markdown) {
  std::istringstream lines(markdown);
  std::size_t open = 0;  // the open fence's length; 0 outside a code block
  for (std::string line; std::getline(lines, line);) {
    std::size_t run = line.find_first_not_of('`');
    run = run == std::string::npos ? line.size() : run;
    if (open == 0 && run >= 3) open = run;
    else if (open > 0 && run >= open && run == line.size()) open = 0;
  }
  return open == 0;
}

/// Every `<` of `tag` in the Markdown is escaped, so GitHub shows it as text.
bool only_escaped(const std::string& markdown, const std::string& tag) {
  for (std::size_t at = markdown.find(tag); at != std::string::npos; at = markdown.find(tag, at + 1)) {
    if (at == 0 || markdown[at - 1] != '\\') return false;
  }
  return true;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(markdown_summary)

BOOST_AUTO_TEST_CASE(the_totals_give_the_pass_rate_cost_tokens_and_time) {
  std::string summary = summary_markdown(test::sample_report());
  BOOST_TEST_INFO(summary);
  BOOST_TEST(
      summary.starts_with("## \xE2\x9D\x8C agent-run: 1 of 4 attempts passed, 1 failed, 1 could not be judged, "
                          "1 skipped\n"));
  BOOST_TEST(contains(summary,
                      "| Attempts | Passed | Failed | Errors | Skipped | Pass rate | Cost | Tokens | Time |\n"
                      "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n"
                      "| 4 | 1 | 1 | 1 | 1 | 50% | $1.0000 | 4.94k | 4.9s |\n"));
  BOOST_TEST(!contains(summary, "budget"));
  BOOST_TEST(contains(summary, "Tokens: 4000 input, 800 output, 120 cache read, 16 cache write."));
}

BOOST_AUTO_TEST_CASE(attempts_skipped_for_the_run_s_budget_are_counted_and_said) {
  RunReport report = test::sample_report();
  report.attempts[3].outcome_type = OutcomeType::run_budget;
  report.attempts.push_back(report.attempts[3]);
  report.attempts.back().n = 3;
  std::string summary = summary_markdown(report);
  BOOST_TEST_INFO(summary);
  BOOST_TEST(contains(summary, "1 of 5 attempts passed, 1 failed, 1 could not be judged, 2 skipped\n"));
  BOOST_TEST(contains(summary, "2 attempts were not started: the run's budget (--max-cost or --max-time) was reached."));
}

BOOST_AUTO_TEST_CASE(each_task_has_a_row_and_a_single_model_no_model_table) {
  std::string summary = summary_markdown(test::sample_report());
  BOOST_TEST(contains(summary, "### Tasks\n\n| Task | Attempts |"));
  BOOST_TEST(contains(summary, "| fix-bug | 2 | 1 | 1 | 0 | 0 | 50% | $0.5000 | 2.47k | 2.5s |\n"));
  BOOST_TEST(contains(summary, "| rename | 2 | 0 | 0 | 1 | 1 | - | $0.5000 | 2.47k | 2.5s |\n"));
  BOOST_TEST(!contains(summary, "### Models"));
}

BOOST_AUTO_TEST_CASE(several_models_add_a_table_per_model_and_labels_name_the_model) {
  RunReport report = test::sample_report();
  report.attempts[1].model = "anthropic/claude-sonnet-4-5";
  std::string summary = summary_markdown(report);
  BOOST_TEST(contains(summary, "### Models\n\n| Model | Attempts |"));
  BOOST_TEST(contains(summary, "| anthropic/claude-sonnet-4-5 | 1 | 0 | 1 | 0 | 0 | 0% |"));
  BOOST_TEST(contains(summary, "#### \xE2\x9D\x8C fix-bug \\#2 \\[anthropic/claude-sonnet-4-5\\]\n"));
}

BOOST_AUTO_TEST_CASE(a_failure_shows_its_type_message_the_check_output_and_the_diagnostics_left_behind) {
  RunReport report = test::sample_report();
  AttemptResult& failed = report.attempts[1];
  failed.edits = {edit_with({problem("src/a.py", 3, "undefined name 'x'", "F821"), problem("src/b.py", 9, "gone", "")}),
                  edit_with({}, {problem("src/b.py", 1, "gone", "")})};
  std::string summary = summary_markdown(report);
  BOOST_TEST_INFO(summary);
  BOOST_TEST(contains(summary,
                      "#### \xE2\x9D\x8C fix-bug \\#2\n\n**check.failed**: python3 -m pytest -q exited 1 "
                      "(script, 3 turns, 1.2s, $0.2500)\n"));
  BOOST_TEST(contains(
      summary, "Check python3 -m pytest -q exited 1 after 0.1s:\n\n```text\nFAILED test_a.py::test_parse\n```\n"));
  BOOST_TEST(
      contains(summary, "Diagnostics left behind (1):\n\n- **src/a.py:3:5** error: undefined name 'x' \\[F821\\]\n"));
  BOOST_TEST(!contains(summary, "\n- **src/b.py"));  // introduced, then resolved by the second edit
  BOOST_TEST(contains(summary,
                      "#### \xE2\x9A\xA0\xEF\xB8\x8F rename \\#1\n\n**model.unavailable**: model API: 529 overloaded"));
}

BOOST_AUTO_TEST_CASE(a_failure_lists_each_edit_as_the_model_saw_it_with_its_during_edit_checks) {
  RunReport report = test::sample_report();
  AttemptResult& failed = report.attempts[1];
  EditRecord typo = edit_with({problem("regexp.go", 9, "undefined: parseRouteTemplat", "")});
  typo.checks = {CheckRecord{"go vet ./...", false, 1, false, 6100, "vet: ./regexp.go:9:2: undefined: parseRouteTemplat\n"}};
  EditRecord slow = edit_with({});
  slow.diagnostics->checker = "gopls";
  slow.diagnostics->status = "timeout";
  slow.checks = {CheckRecord{"go vet ./...", true, 0, false, 5900, ""}};
  failed.edits = {typo, slow};
  std::string summary = summary_markdown(report);
  BOOST_TEST_INFO(summary);
  BOOST_TEST(contains(summary,
                      "Edits (2), as the model saw them:\n\n"
                      "- edit\\_file src/a.py (turn 2): pyflakes: 1 problem (1 new)\n"
                      "  - **regexp.go:9:5** error: undefined: parseRouteTemplat\n"
                      "  - during the edit, go vet ./... exited 1 after 6.1s\n\n"
                      "    ```text\n    vet: ./regexp.go:9:2: undefined: parseRouteTemplat\n    ```\n\n"
                      "- edit\\_file src/a.py (turn 2): gopls: no answer in time\n"
                      "  - during the edit, go vet ./... passed after 5.9s\n"));
}

BOOST_AUTO_TEST_CASE(a_failed_check_shows_only_its_last_twenty_lines) {
  RunReport report = test::sample_report();
  std::string output;
  for (int i = 1; i <= 30; ++i) output += "line " + std::to_string(i) + "\n";
  report.attempts[1].checks.back().output_tail = output;
  std::string summary = summary_markdown(report);
  BOOST_TEST(contains(summary, "```text\nline 11\nline 12\n"));
  BOOST_TEST(!contains(summary, "line 10\n"));
  BOOST_TEST(contains(summary, "line 30\n```\n"));
}

BOOST_AUTO_TEST_CASE(denials_are_counted_by_rule) {
  RunReport report = test::sample_report();
  report.attempts[0].tool_calls.push_back(denied_call("no-network", "curl https://example.com"));
  report.attempts[1].tool_calls.push_back(denied_call("no-network", "wget x"));
  report.attempts[1].tool_calls.push_back(
      ToolCallRecord{2, "c", "edit_file", ".env", "denied", "unmatched", "", "", 0, 0, true});
  std::string summary = summary_markdown(report);
  BOOST_TEST_INFO(summary);
  BOOST_TEST(contains(
      summary,
      "### Denied tool calls by rule\n\n| Rule | Denials | Tools | First denied call |\n|---|---:|---|---|\n"));
  BOOST_TEST(contains(summary, "| no-network | 2 | bash | bash curl https://example.com |\n"));
  BOOST_TEST(contains(summary, "| \\(unmatched\\) | 1 | edit\\_file | edit\\_file .env |\n"));
}

BOOST_AUTO_TEST_CASE(final_messages_are_collapsed_quotes) {
  RunReport report = test::sample_report();
  report.attempts[0].final_message = "Fixed the parser.\nAll <b>tests</b> pass.";
  std::string summary = summary_markdown(report);
  BOOST_TEST(contains(summary,
                      "### Final messages\n\n<details><summary>\xE2\x9C\x85 fix-bug #1</summary>\n\n"
                      "> Fixed the parser.\n> All \\<b\\>tests\\</b\\> pass.\n\n</details>\n"));
}

BOOST_AUTO_TEST_CASE(hostile_text_stays_inside_its_cell_and_its_block) {
  RunReport report = test::sample_report();
  AttemptResult& failed = report.attempts[1];
  failed.model = "evil | model\n| injected | row |";
  failed.message = "50% of `tests` failed\r\n## heading? <script>alert(1)</script> ]]> \x07";
  failed.checks.back().output_tail = "```\nnot the end\n\xff\xfe bytes\n";
  failed.final_message = "</summary></details><img src=x onerror=alert(1)>";
  std::string summary = summary_markdown(report);
  BOOST_TEST_INFO(summary);
  BOOST_TEST(rows_are_whole(summary));
  BOOST_TEST(!contains(summary, "\n| injected"));
  BOOST_TEST(contains(summary, "| evil \\| model \\| injected \\| row \\| |"));
  BOOST_TEST(only_escaped(summary, "<script>"));
  BOOST_TEST(only_escaped(summary, "<img"));
  BOOST_TEST(only_escaped(summary, "</summary></details>"));
  BOOST_TEST(contains(summary, "\\#\\# heading? \\<script\\>alert\\(1\\)\\</script\\> \\]\\]\\> \\#x07"));
  BOOST_TEST(contains(summary, "````text\n```\nnot the end\n\xEF\xBF\xBD\xEF\xBF\xBD bytes\n````\n"));
  BOOST_TEST(count_of(summary, "<details>") == count_of(summary, "</details>"));
  BOOST_TEST(count_of(summary, "<summary>") == count_of(summary, "</summary>"));
  BOOST_TEST(fences_balance(summary));
}

BOOST_AUTO_TEST_CASE(five_thousand_attempts_stay_under_the_limit_cut_between_rows_with_a_note) {
  RunReport report;
  for (int i = 0; i < 5000; ++i) {
    Outcome outcome = i % 3 == 0 ? Outcome::passed : i % 3 == 1 ? Outcome::failed : Outcome::error;
    AttemptResult attempt = test::sample_attempt("task-" + std::to_string(i / 5), i % 5 + 1, outcome);
    attempt.checks.back().output_tail = std::string(60 * 1024, 'x') + "\nthe end\n";
    attempt.final_message = std::string(8000, 'm');
    attempt.tool_calls.push_back(denied_call("rule-" + std::to_string(i % 300), "curl x"));
    report.attempts.push_back(std::move(attempt));
  }
  std::string summary = summary_markdown(report);
  BOOST_TEST(summary.size() <= k_step_summary_bytes);
  BOOST_TEST(summary.size() > k_step_summary_bytes * 9 / 10);  // the budget is used, not wasted
  BOOST_TEST(contains(summary, "| task-999 | 5 |"));           // every task row fits
  BOOST_TEST(contains(summary, "more failures and errors left out to stay under GitHub's 1 MiB step summary limit"));
  BOOST_TEST(rows_are_whole(summary));
  BOOST_TEST(fences_balance(summary));
  BOOST_TEST(count_of(summary, "<details>") == count_of(summary, "</details>"));
}

BOOST_AUTO_TEST_CASE(a_small_budget_keeps_the_headline_and_says_what_was_left_out) {
  std::string summary = summary_markdown(test::sample_report(), 1200);
  BOOST_TEST_INFO(summary);
  BOOST_TEST(summary.size() <= 1200u);
  BOOST_TEST(summary.starts_with("## "));
  BOOST_TEST(contains(summary, "left out to stay under GitHub's 1 MiB step summary limit"));
}

BOOST_AUTO_TEST_CASE(repeats_show_pass_at_k_pass_hat_k_and_flaky_with_errors_apart) {
  std::string summary = summary_markdown(test::repeated_report());
  BOOST_TEST(contains(summary, "### Across attempts\n"));
  // a: 4 of 5 judged pass, one error: pass@1 80%, pass@5 100%, pass^5 0%, median 3 turns, 1.2s.
  BOOST_TEST(contains(summary, "| flip | a | 5 | 1 | 80% | 100% | 0% | flaky | 3 | 1.2s | $0.2500 |\n"));
  BOOST_TEST(contains(summary, "| flip | b | 5 | 0 | 100% | 100% | 100% |  | 3 | 1.2s | $0.2500 |\n"));
}

BOOST_AUTO_TEST_CASE(several_models_get_a_matrix_with_cost_per_pass) {
  std::string summary = summary_markdown(test::repeated_report());
  BOOST_TEST(contains(summary, "### Model matrix\n"));
  BOOST_TEST(contains(summary, "| flip | 4/5 flaky | 5/5 |\n"));
  BOOST_TEST(contains(summary, "| **Pass rate** | 80% | 100% |\n"));
  // a: six attempts at $0.25 over four passes; b: five over five.
  BOOST_TEST(contains(summary, "| **Cost per pass** | $0.3750 | $0.2500 |\n"));
  BOOST_TEST(contains(summary, "| **Flaky tasks** | 1 | 0 |\n"));
}

BOOST_AUTO_TEST_CASE(a_single_attempt_per_task_has_no_repeats_table_and_one_model_no_matrix) {
  RunReport report = test::sample_report();
  report.attempts = {test::sample_attempt("fix-bug", 1, Outcome::passed)};
  std::string summary = summary_markdown(report);
  BOOST_TEST(!contains(summary, "### Across attempts"));
  BOOST_TEST(!contains(summary, "### Model matrix"));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
