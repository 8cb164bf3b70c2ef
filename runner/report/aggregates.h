#pragma once

#include "report/run_report.h"
#include "report/run_totals.h"

#include <string>
#include <vector>

namespace agent_run {

/// Attempts that share a task (or a model), with their totals: the rows of the summary's and the
/// HTML report's tables and charts.
struct AttemptGroup {
  std::string key;  // the task id, or the model
  RunTotals totals;
  std::vector<std::size_t> attempts;  // indexes into RunReport::attempts, in report order
};

/// One group per task, in order of first appearance in the report.
std::vector<AttemptGroup> group_by_task(const RunReport& report);

/// One group per model, in order of first appearance in the report.
std::vector<AttemptGroup> group_by_model(const RunReport& report);

/// `task #n`, with ` [model]` when `show_model`: how every report names one attempt.
std::string attempt_label(const AttemptResult& attempt, bool show_model);

/// Whether the report's attempts ran with more than one model (then labels name the model).
bool several_models(const RunReport& report);

}  // namespace agent_run
