#pragma once

#include "report/run_report.h"

#include <string>
#include <vector>

namespace agent_run {

/// The `no_new_diagnostics: true` check: passes when the attempt's edits, taken together, leave no
/// problem they introduced (a problem introduced by one edit and resolved by a later one does not
/// count). `diagnostics_on` false (--no-diagnostics): it cannot be judged (exit_code -1).
/// `problems` one a line, `path:line:col: severity: message [code]` (the message's first line), at
/// most as many as the per-edit text shows, then a count of the rest.
std::string problem_lines(const std::vector<Problem>& problems);

CheckRecord judge_no_new_diagnostics(const std::vector<EditRecord>& edits, bool diagnostics_on);

}  // namespace agent_run
