#include "diagnostics/model_text.h"

#include "base/duration.h"
#include "base/text.h"
#include "diagnostics/problems.h"

namespace agent_run {

namespace {

constexpr std::size_t k_shown = 10;

std::string plural(std::size_t count, const std::string& word) {
  return std::to_string(count) + " " + word + (count == 1 ? "" : "s");
}

std::string problem_line(const Problem& problem) {
  std::string line = "  ";
  if (problem.other_file) line += "[other file] ";
  line += problem.path;
  if (problem.line > 0) line += ":" + std::to_string(problem.line) + ":" + std::to_string(problem.column);
  std::vector<std::string> message = split(problem.message, '\n');
  line += ": " + problem.severity + ": " + (message.empty() ? std::string() : message.front());
  if (!problem.code.empty()) line += " [" + problem.code + "]";
  for (std::size_t i = 1; i < message.size(); ++i) line += "\n    " + message[i];
  return line + "\n";
}

}  // namespace

std::string diagnostics_text(const EditDiagnostics& diagnostics, std::chrono::milliseconds budget) {
  if (diagnostics.status == "timeout") {
    return "\ndiagnostics (" + diagnostics.checker + "): no answer within " + format_duration(budget) +
           "; check abandoned\n";
  }
  if (diagnostics.status != "problems" || diagnostics.problems.empty()) return {};
  std::vector<Problem> problems = diagnostics.problems;
  sort_problems(problems);
  std::size_t others = 0;
  for (const Problem& problem : problems) others += problem.other_file ? 1 : 0;
  std::string text = "\ndiagnostics (" + diagnostics.checker + "): " + plural(problems.size(), "problem");
  if (others > 0) text += " (" + std::to_string(others) + " in other files)";
  text += "\n";
  for (std::size_t i = 0; i < problems.size() && i < k_shown; ++i) text += problem_line(problems[i]);
  if (problems.size() > k_shown) {
    std::size_t errors = 0;
    for (std::size_t i = k_shown; i < problems.size(); ++i) errors += problems[i].severity == "error" ? 1 : 0;
    std::size_t warnings = problems.size() - k_shown - errors;
    text += "  ... " + std::to_string(problems.size() - k_shown) + " more not shown (" + plural(errors, "error") +
            ", " + plural(warnings, "warning") + ")\n";
  }
  return text;
}

}  // namespace agent_run
