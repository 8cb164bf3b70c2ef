#include "batch/no_new_diagnostics.h"

#include "diagnostics/problems.h"

#include <map>

namespace agent_run {

namespace {

std::string describe(const Problem& problem) {
  std::string text = problem.path;
  if (problem.line > 0) text += ":" + std::to_string(problem.line) + ":" + std::to_string(problem.column);
  text += ": " + problem.severity + ": " + problem.message.substr(0, problem.message.find('\n'));
  return problem.code.empty() ? text : text + " [" + problem.code + "]";
}

}  // namespace

CheckRecord judge_no_new_diagnostics(const std::vector<EditRecord>& edits, bool diagnostics_on) {
  CheckRecord record;
  record.run = "no_new_diagnostics";
  if (!diagnostics_on) {
    record.output_tail = "diagnostics are off for this run (--no-diagnostics), so no_new_diagnostics cannot be judged";
    return record;
  }
  std::map<std::string, std::pair<int, Problem>> net;  // problem key -> (introduced - resolved, the latest seen)
  for (const EditRecord& edit : edits) {
    if (!edit.diagnostics) continue;
    for (const Problem& problem : edit.diagnostics->introduced) {
      auto& entry = net[problem_key(problem)];
      entry.first += 1;
      entry.second = problem;
    }
    for (const Problem& problem : edit.diagnostics->resolved) net[problem_key(problem)].first -= 1;
  }
  std::string introduced;
  int count = 0;
  for (const auto& [key, entry] : net) {
    for (int i = 0; i < entry.first; ++i) {
      introduced += describe(entry.second) + "\n";
      ++count;
    }
  }
  record.passed = count == 0;
  record.exit_code = record.passed ? 0 : 1;
  record.output_tail = record.passed ? "the edits introduced no diagnostics\n"
                                     : std::to_string(count) + " diagnostics introduced by the edits:\n" + introduced;
  return record;
}

}  // namespace agent_run
