#pragma once

#include "report/run_report.h"

#include <string>

namespace agent_run::test {

/// An attempt of `task_id` with every field filled, ending with `outcome`: the base of the report tests.
inline AttemptResult sample_attempt(const std::string& task_id, int n, Outcome outcome) {
  AttemptResult attempt;
  attempt.task_id = task_id;
  attempt.task_file = "tasks/" + task_id + ".yaml";
  attempt.task_sha256 = std::string(64, 'a');
  attempt.model = "script";
  attempt.n = n;
  attempt.outcome = outcome;
  attempt.outcome_type = OutcomeType::passed;
  attempt.started_at = "2026-08-22T10:00:0" + std::to_string(n - 1) + "Z";
  attempt.stop_reason = AgentStop::end_turn;
  attempt.turns = 3;
  attempt.tool_calls.push_back(
      ToolCallRecord{1, "call_1", "read_file", "src/a.py", "allowed", "approval_class", "", "", 12, 340, false});
  attempt.edits.push_back(EditRecord{2, "call_2", "edit_file", "src/a.py", 4, 1});
  attempt.usage.input_tokens = 1000;
  attempt.usage.output_tokens = 200;
  attempt.usage.cache_read_input_tokens = 30;
  attempt.usage.cache_creation_input_tokens = 4;
  attempt.usage.reasoning_tokens = 50;
  attempt.usage.cost_usd = 0.25;
  attempt.durations = Durations{1234, 100, 800, 200, 134};
  attempt.setup.push_back(CheckRecord{"pip install -e .", true, 0, false, 100, ""});
  attempt.checks.push_back(CheckRecord{"python3 -m pytest -q", true, 0, false, 134, "3 passed\n"});
  attempt.patch = PatchStats{1, 4, 1};
  attempt.transcript_path = "attempts/" + task_id + "/" + std::to_string(n) + "/transcript.jsonl";
  attempt.patch_path = "attempts/" + task_id + "/" + std::to_string(n) + "/patch.diff";
  if (outcome == Outcome::failed) {
    attempt.outcome_type = OutcomeType::check_failed;
    attempt.message = "python3 -m pytest -q exited 1";
    attempt.checks.back() = CheckRecord{"python3 -m pytest -q", false, 1, false, 134, "FAILED test_a.py::test_parse\n"};
  } else if (outcome == Outcome::error) {
    attempt.outcome_type = OutcomeType::model_unavailable;
    attempt.message = "model API: 529 overloaded after 4 retries";
  } else if (outcome == Outcome::skipped) {
    // The writers' handling of a skipped outcome is tested with a borrowed type (the runner's own
    // skipped type is run.budget).
    attempt.outcome_type = OutcomeType::interrupted;
    attempt.message = "not in shard 2/3";
  }
  return attempt;
}

/// A run with one attempt of each outcome over two tasks, the first task repeated.
inline RunReport sample_report() {
  RunReport report;
  report.runner_version = "0.1.0";
  report.started_at = "2026-08-22T10:00:00Z";
  report.duration_ms = 5250;
  report.command_line = {"agent-run", "tasks/fix-bug.yaml", "tasks/rename.yaml", "--repeat", "2"};
  report.policy_file = "policies/default.yaml";
  report.policy_sha256 = std::string(64, 'b');
  report.attempts = {sample_attempt("fix-bug", 1, Outcome::passed), sample_attempt("fix-bug", 2, Outcome::failed),
                     sample_attempt("rename", 1, Outcome::error), sample_attempt("rename", 2, Outcome::skipped)};
  return report;
}

/// Task `flip` with model a passing 4 of 5 judged attempts (the third failed) plus one error, and
/// with model b passing 5 of 5: the aggregates' test report.
inline RunReport repeated_report() {
  RunReport report;
  report.runner_version = "0.1.0";
  for (int n = 1; n <= 6; ++n) {
    Outcome outcome = n == 3 ? Outcome::failed : n == 6 ? Outcome::error : Outcome::passed;
    AttemptResult attempt = sample_attempt("flip", n, outcome);
    attempt.model = "a";
    report.attempts.push_back(attempt);
  }
  for (int n = 1; n <= 5; ++n) {
    AttemptResult attempt = sample_attempt("flip", n, Outcome::passed);
    attempt.model = "b";
    report.attempts.push_back(attempt);
  }
  return report;
}

}  // namespace agent_run::test
