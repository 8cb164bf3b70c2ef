#include "tools/edit_checks.h"

namespace agent_run {

void check_after_edit(const ToolScope& scope, ToolOutput& output) {
  if (scope.edit_checks == nullptr || output.is_error || !output.edit) return;
  std::vector<CheckRecord> checks = scope.edit_checks->after_edit();
  std::string text = scope.edit_checks->note(checks);
  if (!text.empty()) {
    if (!output.content.empty() && output.content.back() != '\n') output.content += '\n';
    output.content += text;
  }
  output.edit->checks = std::move(checks);
}

}  // namespace agent_run
