#include "batch/no_new_diagnostics.h"

#include "base/count_text.h"
#include "diagnostics/problems.h"
#include "report/left_behind.h"

#include <optional>
#include <set>

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

std::vector<Problem> in_file(const std::vector<Problem>& problems, const std::string& path) {
  std::vector<Problem> kept;
  for (const Problem& problem : problems) {
    if (problem.path == path) kept.push_back(problem);
  }
  return kept;
}

/// `problems` without `taken` (as multisets), and with `added`.
std::vector<Problem> take_and_add(const std::vector<Problem>& problems, const std::vector<Problem>& taken,
                                  const std::vector<Problem>& added) {
  std::vector<Problem> result = problems_not_in(problems, taken);
  result.insert(result.end(), added.begin(), added.end());
  return result;
}

bool timed_out(const EditRecord& edit) { return edit.diagnostics && edit.diagnostics->status == "timeout"; }

/// The problems `path` had before the agent, from the records: what its first edit's check saw
/// before it, less what earlier edits of other files did to it. nullopt when the records cannot say
/// (that check, or an earlier one, gave no answer).
std::optional<std::vector<Problem>> before_agent_from_records(const std::vector<EditRecord>& edits,
                                                              const std::string& path) {
  std::vector<Problem> brought;  // into the file by earlier edits of other files
  std::vector<Problem> taken;    // out of it by them
  for (const EditRecord& edit : edits) {
    if (!edit.diagnostics || timed_out(edit)) return std::nullopt;
    const EditDiagnostics& seen = *edit.diagnostics;
    if (edit.path == path) {
      if (!seen.compared || (seen.status != "clean" && seen.status != "problems")) return std::nullopt;
      std::vector<Problem> before =
          take_and_add(in_file(seen.problems, path), in_file(seen.introduced, path), in_file(seen.resolved, path));
      return take_and_add(before, brought, taken);
    }
    std::vector<Problem> in = in_file(seen.introduced, path);
    std::vector<Problem> out = in_file(seen.resolved, path);
    brought.insert(brought.end(), in.begin(), in.end());
    taken.insert(taken.end(), out.begin(), out.end());
  }
  return std::nullopt;
}

const ProjectFindings* project_reading(const std::vector<ProjectFindings>& projects, const std::string& path) {
  for (const ProjectFindings& project : projects) {
    if (project.reads && project.reads(path)) return &project;
  }
  return nullptr;
}

}  // namespace

std::string problem_lines(const std::vector<Problem>& problems) {
  std::string text;
  for (std::size_t i = 0; i < problems.size() && i < k_shown; ++i) text += describe(problems[i]) + "\n";
  if (problems.size() > k_shown) text += "... " + std::to_string(problems.size() - k_shown) + " more not shown\n";
  return text;
}

CheckRecord judge_no_new_diagnostics(const std::vector<EditRecord>& edits, bool diagnostics_on,
                                     const RecheckFile& recheck, const std::vector<ProjectFindings>& projects) {
  CheckRecord record;
  record.run = "no_new_diagnostics";
  if (!diagnostics_on) {
    record.output_tail = "diagnostics are off for this run (--no-diagnostics), so no_new_diagnostics cannot be judged";
    return record;
  }
  const std::vector<Problem> recorded = problems_left_behind(edits);  // in edited files only
  std::set<std::string> edited;
  std::set<std::string> doubtful;  // a file an edit left a problem in, or whose check timed out
  for (const EditRecord& edit : edits) {
    edited.insert(edit.path);
    if (timed_out(edit)) doubtful.insert(edit.path);
  }
  for (const Problem& problem : recorded) doubtful.insert(problem.path);
  std::vector<Problem> left;
  std::vector<std::string> unanswered;
  for (const std::string& path : edited) {
    if (const ProjectFindings* project = project_reading(projects, path)) {
      std::vector<Problem> found = in_file(project->introduced, path);
      left.insert(left.end(), found.begin(), found.end());
      continue;
    }
    if (!doubtful.count(path)) continue;
    if (!recheck) {
      std::vector<Problem> found = in_file(recorded, path);
      left.insert(left.end(), found.begin(), found.end());
      continue;
    }
    Expected<FinalFileCheck> final_check = recheck(path);
    if (!final_check) {
      unanswered.push_back(path + ": " + final_check.error().message);
      continue;
    }
    std::optional<std::vector<Problem>> before = before_agent_from_records(edits, path);
    if (!before) before = final_check->before_agent;
    if (!before) {
      unanswered.push_back(path + ": what it held before the agent could not be checked");
      continue;
    }
    std::vector<Problem> found = problems_not_in(in_file(final_check->problems, path), *before);
    left.insert(left.end(), found.begin(), found.end());
  }
  sort_problems(left);
  if (!unanswered.empty()) {
    record.output_tail = "no_new_diagnostics cannot be judged: the final tree's check of " + unanswered.front() +
                         (unanswered.size() > 1 ? " (and " + std::to_string(unanswered.size() - 1) + " more)" : "") +
                         "\n";
    return record;
  }
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
