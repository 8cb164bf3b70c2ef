#pragma once

#include "report/run_report.h"

#include <cstddef>
#include <string>

namespace agent_run {

/// GitHub refuses a step summary above 1 MiB ("supports content up to a size of 1024k"); the
/// summary stays under this, a little below it.
constexpr std::size_t k_step_summary_bytes = 1000 * 1000;

/// summary.md, in GitHub-flavoured Markdown: the totals (pass rate, cost, tokens, time); a table per
/// task, and per model when there are several; each failure and error with its type, message, the
/// failed check's output tail and the first diagnostics left behind; denials by rule; each
/// attempt's final message, collapsed. At most `max_bytes`: a section that does not fit is cut
/// between blocks (never inside a table row) with a note saying how much was left out.
std::string summary_markdown(const RunReport& report, std::size_t max_bytes = k_step_summary_bytes);

}  // namespace agent_run
