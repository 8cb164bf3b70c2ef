#pragma once

#include "diagnostics/workspace_survey.h"
#include "report/edit_diagnostics.h"

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace agent_run {

class AttemptSandbox;

/// What edit_file and write_file hand to the diagnostics check after writing a file.
struct EditCheckRequest {
  std::filesystem::path workspace;          // problems are named relative to it
  std::filesystem::path file;               // absolute, inside the workspace, already written
  std::optional<std::string> before;        // the content before the edit; nullopt for a new file
  std::string after;                        // the content written
  std::vector<std::string> environment;     // KEY=VALUE: PATH finds the servers and linters
  const AttemptSandbox* sandbox = nullptr;  // the attempt's: linters run inside it; nullptr: no sandbox
  HiddenPath hidden;                        // what the policy hides: never surveyed nor sent to a server
  std::optional<std::chrono::milliseconds> budget;  // instead of the checker's (the gate's re-check at the end)
};

/// The workspace of an attempt, as the tools name it outside an edit: at its start, and after a
/// command (bash, a background process's output) that may have changed files.
struct WorkspaceRequest {
  std::filesystem::path workspace;          // absolute, resolved
  std::vector<std::string> environment;     // KEY=VALUE: PATH finds the servers
  const AttemptSandbox* sandbox = nullptr;  // the attempt's: servers run inside it; nullptr: no sandbox
  HiddenPath hidden;                        // what the policy hides: never surveyed nor sent to a server
};

/// The per-edit diagnostics check, as the tools see it (ToolScope holds one, or none when off).
/// Abstract so tool tests can run without language servers.
class DiagnosticsChecker {
 public:
  virtual ~DiagnosticsChecker() = default;
  /// Checks the written file with its language server or linter within the budget (the request's,
  /// else budget()); never throws and never waits past it.
  virtual EditDiagnostics check_edit(const EditCheckRequest& request) = 0;
  /// How long a check may take before it is abandoned.
  virtual std::chrono::milliseconds budget() const = 0;
  /// Starts, without waiting, the language servers of the languages the workspace holds and gives
  /// each one of its files, so that the first edit already finds them warm.
  virtual void warm_workspace(const WorkspaceRequest& /*request*/) {}
  /// Tells the warm servers of the workspace what changed on disk since they were last told (after
  /// a command); skipped while a check runs, since every check tells them first anyway.
  virtual void workspace_changed(const WorkspaceRequest& /*request*/) {}
  /// Stops the servers of a finished attempt's workspace and forgets its files.
  virtual void release_workspace(const std::filesystem::path& workspace) = 0;
};

}  // namespace agent_run
