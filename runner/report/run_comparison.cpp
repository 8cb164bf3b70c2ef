#include "report/run_comparison.h"

#include "report/significance.h"

#include <cmath>
#include <cstdio>
#include <functional>
#include <iterator>
#include <map>
#include <set>

namespace agent_run {

namespace {

/// One attempt as the bootstrap draws it: what it adds to the figures compared.
struct Draw {
  bool judged = false;
  bool passed = false;
  std::optional<double> cost_usd;
  double tokens = 0;
  double ms = 0;
};

/// Sums over attempts, and the figures compared, from them.
struct Sums {
  double judged = 0;
  double passed = 0;
  double attempts = 0;
  double cost = 0;
  bool priced = true;
  double tokens = 0;
  double ms = 0;

  void add(const Draw& draw) {
    judged += draw.judged;
    passed += draw.passed;
    attempts += 1;
    if (draw.cost_usd) cost += *draw.cost_usd;
    priced = priced && draw.cost_usd.has_value();
    tokens += draw.tokens;
    ms += draw.ms;
  }
  /// pass rate, cost, tokens and time per attempt: the metrics' order.
  std::vector<std::optional<double>> figures() const {
    auto per_attempt = [&](double sum) { return attempts > 0 ? std::optional(sum / attempts) : std::nullopt; };
    return {judged > 0 ? std::optional(passed / judged) : std::nullopt,
            priced ? per_attempt(cost) : std::nullopt, per_attempt(tokens), per_attempt(ms)};
  }
};

const char* const k_metric_names[] = {"pass_rate", "cost_per_attempt_usd", "tokens_per_attempt", "time_per_attempt_ms"};

/// One task's attempts that ran (not skipped) in both runs.
struct PairedTask {
  std::string key;
  std::vector<Draw> base;
  std::vector<Draw> head;
};

Draw draw_of(const AttemptResult& attempt) {
  return Draw{attempt.outcome == Outcome::passed || attempt.outcome == Outcome::failed,
              attempt.outcome == Outcome::passed, attempt.usage.cost_usd, double(attempt.usage.total_tokens()),
              double(attempt.durations.total_ms)};
}

std::set<std::string> models_of(const RunReport& report) {
  std::set<std::string> models;
  for (const AttemptResult& attempt : report.attempts) models.insert(attempt.model);
  return models;
}

std::string joined(const std::set<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

using KeyOf = std::function<std::string(const AttemptResult&)>;

/// How the two runs' tasks pair: by id when each ran one model, by id and model when both ran the same ones.
Expected<KeyOf> pairing(const RunReport& base, const RunReport& head) {
  std::set<std::string> base_models = models_of(base);
  std::set<std::string> head_models = models_of(head);
  if (base_models.size() <= 1 && head_models.size() <= 1) return KeyOf([](const AttemptResult& a) { return a.task_id; });
  if (base_models == head_models) {
    return KeyOf([](const AttemptResult& a) { return a.task_id + " [" + a.model + "]"; });
  }
  return make_error("the base run ran the models " + joined(base_models) + " and the head run " + joined(head_models) +
                    ": compare runs of one model each, or of the same models");
}

/// Each key's attempts that ran, in order of first appearance.
std::vector<std::pair<std::string, std::vector<Draw>>> draws_by_key(const RunReport& report, const KeyOf& key_of) {
  std::vector<std::pair<std::string, std::vector<Draw>>> groups;
  std::map<std::string, std::size_t> index;
  for (const AttemptResult& attempt : report.attempts) {
    if (attempt.outcome == Outcome::skipped) continue;
    auto [entry, fresh] = index.try_emplace(key_of(attempt), groups.size());
    if (fresh) groups.emplace_back(entry->first, std::vector<Draw>{});
    groups[entry->second].second.push_back(draw_of(attempt));
  }
  return groups;
}

TaskComparison compare_task(const PairedTask& task, const CompareSettings& settings) {
  TaskComparison result{task.key};
  for (const Draw& draw : task.base) {
    result.base_judged += draw.judged;
    result.base_passed += draw.passed;
    result.base_errors += !draw.judged;
  }
  for (const Draw& draw : task.head) {
    result.head_judged += draw.judged;
    result.head_passed += draw.passed;
    result.head_errors += !draw.judged;
  }
  if (result.base_judged == 0 || result.head_judged == 0) {
    result.change = "not judged";
    return result;
  }
  double base_rate = double(result.base_passed) / result.base_judged;
  double head_rate = double(result.head_passed) / result.head_judged;
  result.change = result.base_passed > 0 && result.head_passed == 0   ? "newly failing"
                  : result.base_passed == 0 && result.head_passed > 0 ? "newly passing"
                  : head_rate < base_rate                             ? "worse"
                  : head_rate > base_rate                             ? "better"
                                                                      : "same";
  result.p_worse = fisher_worse_p(result.base_passed, result.base_judged, result.head_passed, result.head_judged);
  result.p_better = fisher_better_p(result.base_passed, result.base_judged, result.head_passed, result.head_judged);
  result.regression = head_rate < base_rate && base_rate - head_rate > settings.max_pass_rate_drop &&
                      result.p_worse < settings.alpha;
  result.improvement = head_rate > base_rate && result.p_better < settings.alpha;
  return result;
}

/// The bootstrap's draws of each metric's change: the tasks with replacement, then each task's attempts.
std::vector<std::vector<double>> bootstrap(const std::vector<PairedTask>& tasks, const CompareSettings& settings) {
  std::vector<std::vector<double>> changes(std::size(k_metric_names));
  if (tasks.empty()) return changes;
  Resampler resampler(settings.seed);
  for (int r = 0; r < settings.resamples; ++r) {
    Sums base;
    Sums head;
    for (std::size_t t = 0; t < tasks.size(); ++t) {
      const PairedTask& task = tasks[resampler.index(tasks.size())];
      for (std::size_t i = 0; i < task.base.size(); ++i) base.add(task.base[resampler.index(task.base.size())]);
      for (std::size_t i = 0; i < task.head.size(); ++i) head.add(task.head[resampler.index(task.head.size())]);
    }
    std::vector<std::optional<double>> b = base.figures();
    std::vector<std::optional<double>> h = head.figures();
    for (std::size_t m = 0; m < changes.size(); ++m) {
      if (!b[m] || !h[m]) continue;
      if (m == 0) changes[m].push_back(*h[m] - *b[m]);
      else if (*b[m] > 0) changes[m].push_back(*h[m] / *b[m] - 1);
    }
  }
  return changes;
}

std::string fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%+.*f", decimals, value);
  return buffer;
}

std::string unsigned_fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

/// The run-wide metrics, their intervals and whether each is a regression.
std::vector<MetricChange> compare_metrics(const std::vector<PairedTask>& tasks, const CompareSettings& settings) {
  Sums base;
  Sums head;
  for (const PairedTask& task : tasks) {
    for (const Draw& draw : task.base) base.add(draw);
    for (const Draw& draw : task.head) head.add(draw);
  }
  std::vector<std::optional<double>> b = base.figures();
  std::vector<std::optional<double>> h = head.figures();
  std::vector<std::vector<double>> draws = bootstrap(tasks, settings);
  std::optional<double> thresholds[] = {settings.max_pass_rate_drop, settings.max_cost_increase,
                                        settings.max_token_increase, settings.max_time_increase};
  std::vector<MetricChange> metrics;
  for (std::size_t m = 0; m < draws.size(); ++m) {
    MetricChange metric{k_metric_names[m], b[m], h[m]};
    metric.threshold = thresholds[m];
    if (b[m] && h[m] && (m == 0 || *b[m] > 0)) metric.change = m == 0 ? *h[m] - *b[m] : *h[m] / *b[m] - 1;
    if (!draws[m].empty()) {
      metric.interval = Interval{percentile(draws[m], settings.alpha / 2), percentile(draws[m], 1 - settings.alpha / 2)};
    }
    if (metric.interval && metric.threshold) {
      metric.regression = m == 0 ? metric.interval->high < -*metric.threshold : metric.interval->low > *metric.threshold;
    }
    metrics.push_back(metric);
  }
  return metrics;
}

std::vector<std::string> regressions_of(const RunComparison& comparison) {
  std::vector<std::string> found;
  int level = static_cast<int>(std::lround((1 - comparison.settings.alpha) * 100));
  for (const MetricChange& metric : comparison.metrics) {
    if (!metric.regression) continue;
    bool rate = metric.name == "pass_rate";
    double scale = 100;
    found.push_back(metric.name + " changed " + fixed(*metric.change * scale, 1) + (rate ? " points" : "%") + ", " +
                    std::to_string(level) + "% interval " + fixed(metric.interval->low * scale, 1) + " to " +
                    fixed(metric.interval->high * scale, 1) + ": beyond the allowed " + (rate ? "drop of " : "rise of ") +
                    unsigned_fixed(*metric.threshold * scale, 1) + (rate ? " points" : "%"));
  }
  for (const TaskComparison& task : comparison.tasks) {
    if (!task.regression) continue;
    char p[32];
    std::snprintf(p, sizeof p, "%.4f", task.p_worse);
    found.push_back("task " + task.key + ": " + std::to_string(task.base_passed) + "/" +
                    std::to_string(task.base_judged) + " passed, now " + std::to_string(task.head_passed) + "/" +
                    std::to_string(task.head_judged) + " (Fisher's exact test p = " + p + ")");
  }
  return found;
}

}  // namespace

Expected<RunComparison> compare_runs(const RunReport& base, const RunReport& head, const CompareSettings& settings) {
  auto key_of = pairing(base, head);
  if (!key_of) return key_of.error();
  RunComparison comparison{settings};
  auto base_groups = draws_by_key(base, *key_of);
  auto head_groups = draws_by_key(head, *key_of);
  std::map<std::string, const std::vector<Draw>*> in_head;
  for (const auto& [key, draws] : head_groups) in_head[key] = &draws;
  std::vector<PairedTask> paired;
  for (const auto& [key, draws] : base_groups) {
    auto found = in_head.find(key);
    if (found == in_head.end()) {
      comparison.only_in_base.push_back(key);
      continue;
    }
    paired.push_back(PairedTask{key, draws, *found->second});
    in_head.erase(found);
  }
  for (const auto& [key, draws] : head_groups) {
    if (in_head.count(key)) comparison.only_in_head.push_back(key);
  }
  for (const PairedTask& task : paired) comparison.tasks.push_back(compare_task(task, settings));
  comparison.metrics = compare_metrics(paired, settings);
  comparison.regressions = regressions_of(comparison);
  return comparison;
}

}  // namespace agent_run
