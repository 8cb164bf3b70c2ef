#pragma once

#include "base/json.h"
#include "report/run_comparison.h"

#include <string>

namespace agent_run {

/// `agent-run compare`'s Markdown: the verdict, the run-wide figures with their intervals, the
/// method (test, resamples, seed), the tasks that changed with each one's test, and the tasks in
/// only one run. `base` and `head` name the two runs.
std::string comparison_markdown(const RunComparison& comparison, const std::string& base, const std::string& head);

/// The same as one HTML page, styled as report.html (no script, nothing fetched).
std::string comparison_html(const RunComparison& comparison, const std::string& base, const std::string& head);

/// The same as JSON (`agent-run-compare/1`), every task included.
Json comparison_to_json(const RunComparison& comparison, const std::string& base, const std::string& head);

}  // namespace agent_run
