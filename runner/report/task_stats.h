#pragma once

#include "report/run_report.h"
#include "report/run_totals.h"

#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// The mean and median of one figure over a set of attempts.
struct Spread {
  std::optional<double> mean;    // nullopt: no attempt, or a value unknown (a cost not priced)
  std::optional<double> median;
};

/// Turns, time, tokens and cost of the judged attempts (passed or failed) of a set.
struct AttemptSpreads {
  Spread turns;
  Spread duration_ms;
  Spread tokens;
  Spread cost_usd;
};

/// What the attempts of one task with one model say together, recomputed from the attempts:
/// pass@k and pass^k over the judged attempts (errors and skips are counted apart, in neither).
struct TaskStats {
  std::string task_id;
  std::string model;
  RunTotals totals;
  std::vector<double> pass_at_k;   // element k-1 is pass@k, k = 1..judged
  std::vector<double> pass_hat_k;  // element k-1 is pass^k: all of k attempts pass
  bool flaky = false;              // some judged attempts passed and some failed
  AttemptSpreads spreads;

  int judged() const { return totals.passed + totals.failed; }
};

/// One model over every task it ran: a column of the model matrix.
struct ModelStats {
  std::string model;
  RunTotals totals;
  int tasks = 0;        // tasks with at least one judged attempt
  int solved = 0;       // of those, tasks with at least one pass
  int flaky_tasks = 0;
  std::vector<double> pass_at_k;  // the mean over its tasks of each task's pass@k, k up to the fewest judged of a task
  std::optional<double> cost_per_pass;    // the cost of all its attempts over its passed attempts; nullopt: none passed or unpriced
  std::optional<double> tokens_per_pass;  // likewise for tokens
  Spread turns;        // over its judged attempts
  Spread duration_ms;  // likewise
};

/// One TaskStats per task and model, in order of first appearance in the report.
std::vector<TaskStats> task_stats(const RunReport& report);

/// One ModelStats per model, in order of first appearance in the report.
std::vector<ModelStats> model_stats(const RunReport& report);

}  // namespace agent_run
