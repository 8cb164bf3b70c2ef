#pragma once

#include "report/task_stats.h"

#include <string>
#include <vector>

namespace agent_run {

// The aggregates across attempts as a person reads them, the same in summary.md and report.html.

/// A median of turns: `5`, or `5.5` between two; `-` when none.
std::string median_turns(const Spread& turns);

/// A median time as short_duration; `-` when none.
std::string median_time(const Spread& duration_ms);

/// pass@1, pass@n and pass^n of a task's n judged attempts, as percents (`-` when none was judged).
std::vector<std::string> pass_texts(const TaskStats& task);

/// One cell of the model matrix: `3/5`, `3/5 flaky`, `errors only`, or `-` when the model did not run the task.
std::string matrix_cell(const std::vector<TaskStats>& stats, const std::string& task_id, const std::string& model);

/// The model matrix's summary rows, each a label and one text per model: pass rate, pass@1,
/// pass@k at the fewest judged, cost and tokens per pass, median turns and time.
std::vector<std::pair<std::string, std::vector<std::string>>> model_rows(const std::vector<ModelStats>& models);

}  // namespace agent_run
