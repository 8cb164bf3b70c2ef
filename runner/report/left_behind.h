#pragma once

#include "report/run_report.h"

#include <vector>

namespace agent_run {

/// The problems an attempt's edits introduced and left behind, as their checks said at the time:
/// introduced by an edit and not resolved by a later one (problems match by path, severity, code and
/// message, not position), in a file the agent edited (a problem in a file it never edited is never
/// the edits' doing), each at the position it was introduced at, in the order they were introduced.
/// The per-edit gate (batch/no_new_diagnostics) checks these files again on the final tree.
std::vector<Problem> problems_left_behind(const std::vector<EditRecord>& edits);

/// The problems `attempt`'s edits left behind: when its per-edit gate (`no_new_diagnostics`), which
/// checks the final tree, was judged, none if it passed, else those its output lists (the first ten,
/// at their positions on the final tree); without one, its edits' records (above).
std::vector<Problem> problems_left_behind(const AttemptResult& attempt);

}  // namespace agent_run
