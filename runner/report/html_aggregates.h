#pragma once

#include "report/run_report.h"

#include <string>

namespace agent_run {

/// report.html's table across the repeats of each task (and model): judged attempts, errors apart,
/// pass@1, pass@n, pass^n, flaky, median turns and time, mean cost. Empty when no task ran twice.
std::string repeats_html(const RunReport& report);

/// report.html's model matrix: passes per task and model, then each model's pass rate, pass@k,
/// cost and tokens per pass, median turns and time. Empty with one model.
std::string model_matrix_html(const RunReport& report);

}  // namespace agent_run
