#pragma once

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
  std::optional<std::chrono::milliseconds> budget;  // instead of the checker's (the gate's re-check at the end)
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
  /// Stops the servers of a finished attempt's workspace and forgets its files.
  virtual void release_workspace(const std::filesystem::path& workspace) = 0;
};

}  // namespace agent_run
