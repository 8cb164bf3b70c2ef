#include "tools/diagnostics_hook.h"

#include "diagnostics/diagnostics_checker.h"
#include "diagnostics/model_text.h"
#include "tools/hidden_files.h"

#include <sys/stat.h>

namespace agent_run {

namespace {

std::filesystem::path resolved_workspace(const ToolScope& scope) {
  std::error_code ec;
  std::filesystem::path workspace = std::filesystem::weakly_canonical(scope.workspace, ec);
  return ec ? scope.workspace : workspace;
}

/// What the scope's policy hides, asked of the absolute paths a survey walks; valid while `scope` is.
HiddenPath hidden_in(const ToolScope& scope, const std::filesystem::path& workspace) {
  HiddenPaths paths = hidden_paths(scope);
  if (!paths) return {};
  return [paths = std::move(paths), workspace](const std::filesystem::path& absolute, const struct stat& file) {
    const std::string relative = absolute.lexically_relative(workspace).generic_string();
    if (relative.empty() || relative.starts_with("..")) return false;
    if (paths.rule_of_path && !paths.rule_of_path(relative).empty()) return true;
    return S_ISREG(file.st_mode) && paths.rule_of_file && !paths.rule_of_file(file).empty();
  };
}

WorkspaceRequest workspace_request(const ToolScope& scope) {
  WorkspaceRequest request;
  request.workspace = resolved_workspace(scope);
  request.environment = scope.environment;
  request.sandbox = scope.sandbox;
  request.hidden = hidden_in(scope, request.workspace);
  return request;
}

}  // namespace

void check_written_file(const ToolScope& scope, const ConfinedPath& file, const ExistingFile& before,
                        const std::string& after, ToolOutput& output) {
  if (scope.diagnostics == nullptr || output.is_error || !output.edit) return;
  EditCheckRequest request;
  request.workspace = resolved_workspace(scope);
  request.file = file.absolute;
  if (before.exists) request.before = before.content;
  request.after = after;
  request.environment = scope.environment;
  request.sandbox = scope.sandbox;
  request.hidden = hidden_in(scope, request.workspace);
  EditDiagnostics diagnostics = scope.diagnostics->check_edit(request);
  std::string text = diagnostics_text(diagnostics, scope.diagnostics->budget());
  if (!text.empty()) {
    if (!output.content.empty() && output.content.back() != '\n') output.content += '\n';
    output.content += text;
  }
  output.edit->diagnostics = std::move(diagnostics);
}

void tell_diagnostics_of_changes(const ToolScope& scope) {
  if (scope.diagnostics != nullptr) scope.diagnostics->workspace_changed(workspace_request(scope));
}

void warm_diagnostics(const ToolScope& scope) {
  if (scope.diagnostics != nullptr) scope.diagnostics->warm_workspace(workspace_request(scope));
}

}  // namespace agent_run
