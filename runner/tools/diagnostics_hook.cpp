#include "tools/diagnostics_hook.h"

#include "diagnostics/diagnostics_checker.h"
#include "diagnostics/model_text.h"

namespace agent_run {

void check_written_file(ToolContext& context, const ConfinedPath& file, const ExistingFile& before,
                        const std::string& after, ToolOutput& output) {
  if (context.diagnostics == nullptr || output.is_error || !output.edit) return;
  EditCheckRequest request;
  std::error_code ec;
  request.workspace = std::filesystem::weakly_canonical(context.workspace, ec);
  if (ec) request.workspace = context.workspace;
  request.file = file.absolute;
  if (before.exists) request.before = before.content;
  request.after = after;
  request.environment = context.environment;
  EditDiagnostics diagnostics = context.diagnostics->check_edit(request);
  std::string text = diagnostics_text(diagnostics, context.diagnostics->budget());
  if (!text.empty()) {
    if (!output.content.empty() && output.content.back() != '\n') output.content += '\n';
    output.content += text;
  }
  output.edit->diagnostics = std::move(diagnostics);
}

}  // namespace agent_run
