#pragma once

#include "report/run_report.h"
#include "tools/tool.h"

#include <string>
#include <vector>

namespace agent_run {

/// The task's cheap checks (`during: edit`) run after each edit so the agent learns of a failure
/// before it finishes; batch/ runs them, as the attempt's other checks, in the agent's sandbox.
class EditChecks {
 public:
  virtual ~EditChecks() = default;
  /// Runs the checks after an edit; each record's output tail is kept only when it failed.
  virtual std::vector<CheckRecord> after_edit() = 0;
  /// The note the model reads after the edit's result: what failed (command, how it ended, the end of
  /// its output) and what passes again; empty when nothing changed for the better or went wrong.
  virtual std::string note(const std::vector<CheckRecord>& checks) = 0;
};

/// After edit_file or write_file changed a file: runs the scope's edit checks (none when it has none or
/// the write failed), appends their note to the output and records them in the output's edit.
void check_after_edit(const ToolScope& scope, ToolOutput& output);

}  // namespace agent_run
