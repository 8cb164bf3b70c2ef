#pragma once

#include "base/expected.h"
#include "report/run_report.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// What `agent-run compare` counts as a regression, and how it tells one from noise.
struct CompareSettings {
  double max_pass_rate_drop = 0.0;               // --max-pass-rate-drop: allowed drop, a fraction (0.05: 5 points)
  std::optional<double> max_cost_increase;       // --max-cost-increase: allowed rise of cost per attempt, a fraction
  std::optional<double> max_token_increase;      // --max-token-increase: likewise for tokens per attempt
  std::optional<double> max_time_increase;       // --max-time-increase: likewise for time per attempt
  double alpha = 0.05;                           // the tests' significance level; the interval is 1 - alpha
  int resamples = 5000;                          // of the paired bootstrap
  std::uint64_t seed = 1;                        // --seed: of the bootstrap
};

/// A two-sided interval of a change, from the bootstrap.
struct Interval {
  double low = 0;
  double high = 0;
};

/// One task (with one model when both runs ran the same several models) in both runs.
struct TaskComparison {
  std::string key;  // the task id, with ` [model]` when paired by model
  int base_passed = 0;
  int base_judged = 0;
  int base_errors = 0;
  int head_passed = 0;
  int head_judged = 0;
  int head_errors = 0;
  std::string change;   // newly failing | newly passing | worse | better | same | not judged
  double p_worse = 1;   // Fisher's exact test, one-sided: that the head is no worse explains this drop
  double p_better = 1;  // the same for a rise
  bool regression = false;   // a drop beyond --max-pass-rate-drop with p_worse < alpha
  bool improvement = false;  // a rise with p_better < alpha
};

/// One run-wide figure in both runs, with the change's interval.
struct MetricChange {
  std::string name;               // pass_rate | cost_per_attempt_usd | tokens_per_attempt | time_per_attempt_ms
  std::optional<double> base;     // nullopt: unknown (a price missing, nothing judged)
  std::optional<double> head;
  std::optional<double> change;   // pass rate: head - base; the others: head / base - 1
  std::optional<Interval> interval;
  std::optional<double> threshold;  // the allowed change; nullopt: not checked
  bool regression = false;          // the whole interval lies beyond the threshold
};

/// BASE against HEAD: per task and overall.
struct RunComparison {
  CompareSettings settings;
  std::vector<TaskComparison> tasks;  // in both runs, in the base run's order
  std::vector<std::string> only_in_base;
  std::vector<std::string> only_in_head;
  std::vector<MetricChange> metrics;  // pass rate, then cost, tokens and time per attempt
  std::vector<std::string> regressions;  // each one, for a person: empty when there is none outside the noise

  bool regressed() const { return !regressions.empty(); }
};

/// Compares two runs task by task. Tasks pair by id when each run has one model (so two models'
/// runs compare); by id and model when both ran the same several models; otherwise an error.
/// Pass rates count judged attempts only (errors and skips apart). The overall intervals come
/// from a paired bootstrap, seeded: the tasks in both runs drawn with replacement, and within
/// each task its attempts of each run; per task, Fisher's exact test.
Expected<RunComparison> compare_runs(const RunReport& base, const RunReport& head, const CompareSettings& settings);

}  // namespace agent_run
