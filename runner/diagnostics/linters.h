#pragma once

#include "diagnostics/languages.h"
#include "report/edit_diagnostics.h"

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace agent_run {

class AttemptSandbox;

/// How a linter prints its findings.
enum class LinterFormat { gcc, shellcheck, go_build, go_vet, pyflakes, ruff, tsc, eslint_json, bash_n };

/// One linter command for one file: what to run, where, and how to read what it prints.
struct LinterCommand {
  std::string name;                       // go vet, pyflakes, tsc, ...: the checker named in reports
  std::vector<std::string> argv;          // argv[0] resolved to a full path
  std::vector<std::string> version_argv;  // prints its version on the first line
  std::filesystem::path cwd;
  LinterFormat format = LinterFormat::gcc;
  std::string go_overlay;              // go build -overlay file (baseline runs only)
  bool errors_only = false;            // reports errors but not warnings (a go build baseline)
  bool whole_project = false;          // slow (tsc, cargo check): a warm server gets the whole budget
  std::vector<std::string> then_argv;  // run next when the first finds nothing (go vet after go build)
};

/// What the file looked like before the edit, for a baseline run of the same linter, when the
/// linter can check it without touching the workspace (a copy elsewhere, or go's -overlay).
struct EarlierContent {
  std::filesystem::path folder;      // a scratch folder outside the workspace, as the linter sees it
  std::filesystem::path copy;        // in it, a file holding the earlier content; empty: the file did not exist
  std::filesystem::path written_at;  // where agent-run writes `folder`'s files (a sandbox's /tmp is elsewhere)
};

/// The linter for `file`, first found on the PATH of `environment`; with `earlier`, the command
/// that checks the earlier content instead, or nullopt when this linter cannot.
std::optional<LinterCommand> linter_for(Language language, const std::filesystem::path& file,
                                        const std::filesystem::path& root, const std::vector<std::string>& environment,
                                        const std::optional<EarlierContent>& earlier = std::nullopt);

/// How one linter run ended.
struct LinterResult {
  bool finished = false;          // false: it timed out or could not start
  std::string failure;            // why it did not finish
  std::vector<Problem> problems;  // paths absolute
};

/// Runs `command` with LC_ALL=C until `deadline`, inside `sandbox` when there is one (the linter
/// reads the agent's files: a project's own tools or config may be the agent's), and reads its findings.
LinterResult run_linter(const LinterCommand& command, const std::vector<std::string>& environment,
                        std::chrono::steady_clock::time_point deadline, const AttemptSandbox* sandbox = nullptr);

/// Reads a linter's output (stdout and stderr together). Relative paths are resolved against
/// `cwd`. A non-zero exit with nothing readable becomes one problem holding the first lines.
std::vector<Problem> parse_linter_output(LinterFormat format, const std::string& output, int exit_code,
                                         const std::filesystem::path& cwd, const std::filesystem::path& file);

}  // namespace agent_run
