#include "batch/no_new_diagnostics.h"

#include "base/count_text.h"
#include "report/left_behind.h"

namespace agent_run {

namespace {

/// As many problems as the per-edit text shows (diagnostics/model_text); the rest are counted.
constexpr std::size_t k_shown = 10;

std::string describe(const Problem& problem) {
  std::string text = problem.path;
  if (problem.line > 0) text += ":" + std::to_string(problem.line) + ":" + std::to_string(problem.column);
  text += ": " + problem.severity + ": " + problem.message.substr(0, problem.message.find('\n'));
  return problem.code.empty() ? text : text + " [" + problem.code + "]";
}

}  // namespace

std::string problem_lines(const std::vector<Problem>& problems) {
  std::string text;
  for (std::size_t i = 0; i < problems.size() && i < k_shown; ++i) text += describe(problems[i]) + "\n";
  if (problems.size() > k_shown) text += "... " + std::to_string(problems.size() - k_shown) + " more not shown\n";
  return text;
}

CheckRecord judge_no_new_diagnostics(const std::vector<EditRecord>& edits, bool diagnostics_on) {
  CheckRecord record;
  record.run = "no_new_diagnostics";
  if (!diagnostics_on) {
    record.output_tail = "diagnostics are off for this run (--no-diagnostics), so no_new_diagnostics cannot be judged";
    return record;
  }
  const std::vector<Problem> left = problems_left_behind(edits);
  record.passed = left.empty();
  record.exit_code = record.passed ? 0 : 1;
  if (record.passed) {
    record.output_tail = "the edits introduced no diagnostics\n";
    return record;
  }
  record.output_tail =
      count_of(left.size(), "diagnostic", "diagnostics") + " introduced by the edits:\n" + problem_lines(left);
  return record;
}

}  // namespace agent_run
