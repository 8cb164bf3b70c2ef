#include "tools/diagnostics_hook.h"

#include "diagnostics/diagnostics_checker.h"
#include "diagnostics/model_text.h"

namespace agent_run {

void check_written_file(const ToolScope& scope, const ConfinedPath& file, const ExistingFile& before,
                        const std::string& after, ToolOutput& output) {
  if (scope.diagnostics == nullptr || output.is_error || !output.edit) return;
  EditCheckRequest request;
  std::error_code ec;
  request.workspace = std::filesystem::weakly_canonical(scope.workspace, ec);
  if (ec) request.workspace = scope.workspace;
  request.file = file.absolute;
  if (before.exists) request.before = before.content;
  request.after = after;
  request.environment = scope.environment;
  request.sandbox = scope.sandbox;
  EditDiagnostics diagnostics = scope.diagnostics->check_edit(request);
  std::string text = diagnostics_text(diagnostics, scope.diagnostics->budget());
  if (!text.empty()) {
    if (!output.content.empty() && output.content.back() != '\n') output.content += '\n';
    output.content += text;
  }
  output.edit->diagnostics = std::move(diagnostics);
}

}  // namespace agent_run
