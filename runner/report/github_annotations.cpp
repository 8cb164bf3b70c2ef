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

constexpr std::size_t k_searched_lines = 40;

/// True for a line that starts a failure's story: a traceback, an error or a failed test.
bool starts_an_error(std::string_view line) {
  const std::string lower = to_lower(line);
  for (const char* marker : {"traceback", "error", "fail", "panic", "exception", "assert", "fatal"}) {
    if (lower.find(marker) != std::string::npos) return true;
  }
  return false;
}

/// What a failed command said: from the first line of its last k_searched_lines that names an error
/// (so the message does not start mid-traceback), else its last k_output_lines lines; at most
/// k_message_bytes.
std::string error_lines(std::string_view output) {
  std::vector<std::string_view> lines;
  std::string_view kept = trim(output);
  for (std::size_t end = kept.size(); end > 0 && lines.size() < k_searched_lines;) {
    std::size_t newline = kept.rfind('\n', end - 1);
    std::size_t start = newline == std::string_view::npos ? 0 : newline + 1;
    lines.insert(lines.begin(), kept.substr(start, end - start));
    end = newline == std::string_view::npos ? 0 : newline;
  }
  std::size_t first = lines.size() > k_output_lines ? lines.size() - k_output_lines : 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (starts_an_error(lines[i])) {
      first = std::min(first, i);
      break;
    }
  }
  std::string text;
  for (std::size_t i = first; i < lines.size(); ++i) text += std::string(lines[i]) + (i + 1 < lines.size() ? "\n" : "");
  return text.size() > k_message_bytes ? text.substr(0, k_message_bytes) : text;
}

/// One failed setup or check command, and the attempts whose same command failed the same way.
struct FailedCommand {
  Annotation annotation;
  std::vector<std::string> attempts;
};

void collect_failed_commands(const AttemptResult& attempt, const RepositoryPaths& paths, bool show_model,
                             std::vector<FailedCommand>& failed, std::map<std::string, std::size_t>& index) {
  for (const std::vector<CheckRecord>* commands : {&attempt.setup, &attempt.checks}) {
    for (const CheckRecord& check : *commands) {
      if (check.passed) continue;
      std::string how = check.timed_out ? "timed out" : "exited " + std::to_string(check.exit_code);
      std::string kind = commands == &attempt.setup ? "setup" : "check";
      std::string message = error_lines(check.output_tail);
      if (message.empty()) message = attempt.message;
      std::string file = paths.task_file(attempt).value_or("");
      std::string what = kind + " `" + std::string(trim(check.run)).substr(0, 200) + "` " + how;
      auto [entry, fresh] = index.try_emplace(file + '\0' + what + '\0' + message, failed.size());
      if (fresh) failed.push_back(FailedCommand{{"error", file, 0, 0, what, message}, {}});
      failed[entry->second].attempts.push_back(attempt_label(attempt, show_model));
      return;  // the first failure of an attempt: the rest follow from it
    }
  }
}

/// "fix-bug #2", or "3 attempts (fix-bug #1, ...)".
std::string attempts_text(const std::vector<std::string>& attempts) {
  return attempts.size() == 1 ? attempts.front()
                              : std::to_string(attempts.size()) + " attempts (" + join(attempts, ", ").substr(0, 300) + ")";
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

/// Each distinct annotation once, with the attempts it comes from: problems on a source line first
/// (those of attempts that did not pass before the others), then failed commands, then problems
/// outside the repository.
std::vector<Annotation> ranked_annotations(const RunReport& report, const RepositoryPaths& paths) {
  bool show_model = several_models(report);
  std::vector<LeftProblem> problems;
  std::vector<FailedCommand> failed;
  std::map<std::string, std::size_t> problem_index;
  std::map<std::string, std::size_t> failed_index;
  for (const AttemptResult& attempt : report.attempts) {
    collect_failed_commands(attempt, paths, show_model, failed, failed_index);
    collect_problems(attempt, paths, show_model, problems, problem_index);
  }
  std::stable_partition(problems.begin(), problems.end(), [](const LeftProblem& p) { return p.from_failure; });
  auto on_a_line = std::stable_partition(problems.begin(), problems.end(),
                                         [](const LeftProblem& p) { return !p.annotation.file.empty(); });
  std::vector<Annotation> annotations;
  auto add_problems = [&](auto from, auto to) {
    for (auto left = from; left != to; ++left) {
      left->annotation.title = "agent-run: left behind by " + attempts_text(left->attempts);
      annotations.push_back(std::move(left->annotation));
    }
  };
  add_problems(problems.begin(), on_a_line);
  for (FailedCommand& command : failed) {
    command.annotation.title = "agent-run: " + attempts_text(command.attempts) + ": " + command.annotation.title;
    annotations.push_back(std::move(command.annotation));
  }
  add_problems(on_a_line, problems.end());
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
