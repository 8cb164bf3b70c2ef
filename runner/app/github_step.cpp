#include "app/github_step.h"

#include "app/exit_code.h"
#include "report/markdown_summary.h"
#include "report/workflow_commands.h"

#include <cstdio>
#include <fstream>
#include <memory>
#include <random>

namespace agent_run {

namespace {

constexpr std::size_t k_least_summary_bytes = 2048;  // below this, the summary is not appended at all

std::optional<std::string> value_of(const std::vector<std::string>& environment, const std::string& name) {
  for (const std::string& entry : environment) {
    if (entry.size() > name.size() && entry.compare(0, name.size(), name) == 0 && entry[name.size()] == '=') {
      return entry.substr(name.size() + 1);
    }
  }
  return std::nullopt;
}

bool append(const std::filesystem::path& file, const std::string& text, std::ostream& err) {
  std::ofstream stream(file, std::ios::app | std::ios::binary);
  stream << text;
  stream.flush();
  if (stream) return true;
  err << "agent-run: warning: cannot append to " << file.string() << "\n";
  return false;
}

void append_summary(const std::filesystem::path& file, const RunReport& report, std::ostream& err) {
  std::error_code ec;
  std::uintmax_t used = std::filesystem::exists(file, ec) ? std::filesystem::file_size(file, ec) : 0;
  if (ec) used = 0;
  std::size_t left = used >= k_step_summary_bytes ? 0 : k_step_summary_bytes - static_cast<std::size_t>(used);
  if (left < k_least_summary_bytes) {
    err << "agent-run: warning: " << file.string() << " is nearly at GitHub's 1 MiB limit; the summary is only in "
        << "summary.md\n";
    return;
  }
  append(file, summary_markdown(report, left), err);
}

/// A heredoc delimiter for $GITHUB_OUTPUT that `value` does not hold, as actions/toolkit makes
/// them: `ghadelimiter_` and 128 random bits, so that no text the agent wrote can end the value
/// early and set an output of its own.
std::string output_delimiter(const std::string& value) {
  std::random_device random;
  for (;;) {
    std::string delimiter = "ghadelimiter_";
    for (int i = 0; i < 4; ++i) {
      char word[9];
      std::snprintf(word, sizeof word, "%08x", static_cast<unsigned>(random()));
      delimiter += word;
    }
    if (value.find(delimiter) == std::string::npos) return delimiter;
  }
}

/// `final-message` (the one attempt's final answer, when the report holds one attempt: a -p run
/// or a single task) and `report-html` (when the folder has one), after the figures.
std::string answer_outputs(const RunReport& report, const std::filesystem::path& folder) {
  std::string text;
  if (report.attempts.size() == 1) {
    const std::string& answer = report.attempts.front().final_message;
    text += multiline_output("final-message", answer, output_delimiter(answer));
  }
  std::error_code ec;
  if (std::filesystem::is_regular_file(folder / "report.html", ec)) {
    text += "report-html=" + (folder / "report.html").string() + "\n";
  }
  return text;
}

/// `path` relative to `root` when it lies under it ('/'-separated), else nullopt.
std::optional<std::string> under(const std::filesystem::path& root, const std::filesystem::path& path) {
  std::error_code ec;
  std::filesystem::path relative =
      std::filesystem::weakly_canonical(path, ec).lexically_relative(std::filesystem::weakly_canonical(root, ec));
  if (ec || relative.empty() || *relative.begin() == "..") return std::nullopt;
  return relative.generic_string();
}

}  // namespace

GithubStep github_step(const std::vector<std::string>& environment) {
  GithubStep step;
  step.annotations = value_of(environment, "GITHUB_ACTIONS") == "true";
  if (auto summary = value_of(environment, "GITHUB_STEP_SUMMARY"); summary && !summary->empty())
    step.summary = *summary;
  if (auto outputs = value_of(environment, "GITHUB_OUTPUT"); outputs && !outputs->empty()) step.outputs = *outputs;
  std::error_code ec;
  auto workspace = value_of(environment, "GITHUB_WORKSPACE");
  step.repository =
      workspace && !workspace->empty() ? std::filesystem::path(*workspace) : std::filesystem::current_path(ec);
  return step;
}

void tell_github(const GithubStep& step, const RunReport& report, int exit_code, const std::filesystem::path& out_dir,
                 const RepositoryPaths* paths, std::ostream& out, std::ostream& err) {
  if (step.summary) append_summary(*step.summary, report, err);
  if (step.annotations && paths) {
    for (const std::string& command : annotation_commands(report, *paths)) out << command << "\n";
  }
  if (step.outputs) {
    std::error_code ec;
    std::filesystem::path folder = std::filesystem::absolute(out_dir, ec).lexically_normal();
    append(*step.outputs,
           "outcome=" + std::string(outcome_word(exit_code)) + "\n" + step_outputs(report) +
               "report-dir=" + folder.string() + "\n" + answer_outputs(report, folder),
           err);
  }
}

RepositoryPaths repository_paths(const std::filesystem::path& repository,
                                 std::map<std::string, std::filesystem::path> workspace_sources) {
  auto sources = std::make_shared<std::map<std::string, std::filesystem::path>>(std::move(workspace_sources));
  RepositoryPaths paths;
  paths.in_workspace = [repository, sources](const AttemptResult& attempt, const std::string& path) {
    std::filesystem::path file = path;
    auto source = sources->find(attempt.task_id);
    if (file.is_relative() && source == sources->end()) return std::optional<std::string>();
    return under(repository, file.is_absolute() ? file : source->second / file);
  };
  paths.task_file = [repository](const AttemptResult& attempt) {
    std::error_code ec;
    return under(repository, std::filesystem::absolute(attempt.task_file, ec));
  };
  return paths;
}

}  // namespace agent_run
