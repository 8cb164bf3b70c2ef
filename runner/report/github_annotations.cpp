#include "report/github_annotations.h"

#include "base/text.h"
#include "report/aggregates.h"
#include "report/left_behind.h"
#include "report/workflow_commands.h"

#include <algorithm>
#include <map>

namespace agent_run {

namespace {

constexpr std::size_t k_message_bytes = 2048;
constexpr std::size_t k_output_lines = 10;

/// The last k_output_lines lines of `output`, at most k_message_bytes.
std::string last_lines(std::string_view output) {
  std::string_view kept = trim(output);
  std::size_t start = kept.size();
  for (std::size_t lines = 0; lines < k_output_lines && start > 0; ++lines) {
    std::size_t newline = kept.rfind('\n', start - 1);
    start = newline == std::string_view::npos ? 0 : newline;
  }
  return tail_of(kept.substr(start == 0 ? 0 : start + 1), k_message_bytes);
}

std::optional<Annotation> failed_command(const AttemptResult& attempt, const RepositoryPaths& paths, bool show_model) {
  for (const std::vector<CheckRecord>* commands : {&attempt.setup, &attempt.checks}) {
    for (const CheckRecord& check : *commands) {
      if (check.passed) continue;
      std::string how = check.timed_out ? "timed out" : "exited " + std::to_string(check.exit_code);
      std::string kind = commands == &attempt.setup ? "setup" : "check";
      Annotation annotation{"error",
                            paths.task_file(attempt).value_or(""),
                            0,
                            0,
                            "agent-run: " + attempt_label(attempt, show_model) + ": " + kind + " `" +
                                std::string(trim(check.run)).substr(0, 200) + "` " + how,
                            last_lines(check.output_tail)};
      if (annotation.message.empty()) annotation.message = attempt.message;
      return annotation;
    }
  }
  return std::nullopt;
}

/// One problem left behind, and the attempts that left it.
struct LeftProblem {
  Annotation annotation;
  std::vector<std::string> attempts;
  bool from_failure = false;  // one of them did not pass
};

void collect_problems(const AttemptResult& attempt, const RepositoryPaths& paths, bool show_model,
                      std::vector<LeftProblem>& problems, std::map<std::string, std::size_t>& index) {
  for (const Problem& problem : problems_left_behind(attempt)) {
    std::string file = paths.in_workspace(attempt, problem.path).value_or("");
    std::string key = file + '\0' + std::to_string(problem.line) + '\0' + problem.severity + '\0' + problem.message;
    auto [entry, fresh] = index.try_emplace(key, problems.size());
    if (fresh) {
      std::string message = problem.message + (problem.code.empty() ? "" : " [" + problem.code + "]");
      if (file.empty()) message = problem.path + ": " + message;
      problems.push_back(LeftProblem{{problem.severity == "error" ? "error" : "warning", file, problem.line,
                                      problem.column, "", tail_of(message, k_message_bytes)},
                                     {},
                                     false});
    }
    LeftProblem& left = problems[entry->second];
    left.attempts.push_back(attempt_label(attempt, show_model));
    left.from_failure = left.from_failure || attempt.outcome != Outcome::passed;
  }
}

std::vector<Annotation> ranked_annotations(const RunReport& report, const RepositoryPaths& paths) {
  bool show_model = several_models(report);
  std::vector<Annotation> annotations;
  std::vector<LeftProblem> problems;
  std::map<std::string, std::size_t> index;
  for (const AttemptResult& attempt : report.attempts) {
    if (auto failed = failed_command(attempt, paths, show_model)) annotations.push_back(std::move(*failed));
    collect_problems(attempt, paths, show_model, problems, index);
  }
  std::stable_partition(problems.begin(), problems.end(), [](const LeftProblem& p) { return p.from_failure; });
  for (LeftProblem& left : problems) {
    std::string who = left.attempts.size() == 1 ? left.attempts.front()
                                                : std::to_string(left.attempts.size()) + " attempts (" +
                                                      join(left.attempts, ", ").substr(0, 300) + ")";
    left.annotation.title = "agent-run: left behind by " + who;
    annotations.push_back(std::move(left.annotation));
  }
  return annotations;
}

}  // namespace

std::vector<std::string> annotation_commands(const RunReport& report, const RepositoryPaths& paths,
                                             const AnnotationLimits& limits) {
  std::vector<std::string> commands;
  std::size_t errors = 0;
  std::size_t warnings = 0;
  std::size_t rest = 0;
  for (const Annotation& annotation : ranked_annotations(report, paths)) {
    std::size_t& shown = annotation.level == "error" ? errors : warnings;
    if (shown >= (annotation.level == "error" ? limits.errors : limits.warnings)) {
      ++rest;
      continue;
    }
    ++shown;
    commands.push_back(annotation_command(annotation));
  }
  if (rest > 0) {
    commands.push_back(annotation_command(
        Annotation{"notice", "", 0, 0, "agent-run",
                   std::to_string(rest) + " more annotations not shown (GitHub shows " + std::to_string(limits.errors) +
                       " errors and " + std::to_string(limits.warnings) +
                       " warnings of a step); the step summary and report.html list every failure"}));
  }
  return commands;
}

}  // namespace agent_run
