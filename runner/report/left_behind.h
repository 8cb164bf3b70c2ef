#pragma once

#include "report/run_report.h"

#include <vector>

namespace agent_run {

/// The problems an attempt's edits introduced and left behind: introduced by an edit and not
/// resolved by a later one (problems match by path, severity, code and message, not position),
/// each at the position it was introduced at, in the order they were introduced.
std::vector<Problem> problems_left_behind(const std::vector<EditRecord>& edits);

}  // namespace agent_run
