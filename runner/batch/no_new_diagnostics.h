#pragma once

#include "report/run_report.h"

#include <vector>

namespace agent_run {

/// The `no_new_diagnostics: true` check: passes when the attempt's edits, taken together, leave no
/// problem they introduced (a problem introduced by one edit and resolved by a later one does not
/// count). `diagnostics_on` false (--no-diagnostics): it cannot be judged (exit_code -1).
CheckRecord judge_no_new_diagnostics(const std::vector<EditRecord>& edits, bool diagnostics_on);

}  // namespace agent_run
