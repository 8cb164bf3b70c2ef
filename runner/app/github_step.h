#pragma once

#include "report/github_annotations.h"
#include "report/run_report.h"

#include <filesystem>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace agent_run {

/// What agent-run tells GitHub Actions about a finished run, as the environment asks for it.
struct GithubStep {
  bool annotations = false;                      // GITHUB_ACTIONS=true: print ::error lines
  std::optional<std::filesystem::path> summary;  // $GITHUB_STEP_SUMMARY: append summary.md's Markdown
  std::optional<std::filesystem::path> outputs;  // $GITHUB_OUTPUT: append the outcome and figures
  std::filesystem::path repository;              // $GITHUB_WORKSPACE, else the current folder
};

/// The step's settings from KEY=VALUE `environment`.
GithubStep github_step(const std::vector<std::string>& environment);

/// Appends the summary (within what the step's summary file leaves of GitHub's 1 MiB), prints the
/// annotations to `out` (when `paths` is given: a run, not a merge) and appends the outputs
/// (`outcome` from `exit_code`, the figures, `report-dir`; `final-message` when the report holds one
/// attempt, multi-line safe; `report-html` when the folder has one). Trouble writing a file is a warning on
/// `err`: the run's result stands.
void tell_github(const GithubStep& step, const RunReport& report, int exit_code, const std::filesystem::path& out_dir,
                 const RepositoryPaths* paths, std::ostream& out, std::ostream& err);

/// RepositoryPaths over `repository` for tasks whose workspaces are copies of `workspace_sources`
/// (task id to the folder an attempt's workspace is made from).
RepositoryPaths repository_paths(const std::filesystem::path& repository,
                                 std::map<std::string, std::filesystem::path> workspace_sources);

}  // namespace agent_run
