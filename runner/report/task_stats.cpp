#include "report/task_stats.h"

#include "report/pass_at_k.h"

#include <algorithm>
#include <iterator>
#include <map>

namespace agent_run {

namespace {

bool judged(const AttemptResult& attempt) {
  return attempt.outcome == Outcome::passed || attempt.outcome == Outcome::failed;
}

template <typename Value>
Spread spread_of(const std::vector<const AttemptResult*>& attempts, Value value) {
  std::vector<double> values;
  for (const AttemptResult* attempt : attempts) {
    std::optional<double> one = value(*attempt);
    if (!one) return {};
    values.push_back(*one);
  }
  return Spread{mean_of(values), median_of(values)};
}

Spread turns_of(const std::vector<const AttemptResult*>& attempts) {
  return spread_of(attempts, [](const AttemptResult& a) { return std::optional<double>(a.turns); });
}

Spread time_of(const std::vector<const AttemptResult*>& attempts) {
  return spread_of(attempts, [](const AttemptResult& a) { return std::optional<double>(a.durations.total_ms); });
}

AttemptSpreads spreads_of(const std::vector<const AttemptResult*>& attempts) {
  return AttemptSpreads{
      turns_of(attempts), time_of(attempts),
      spread_of(attempts, [](const AttemptResult& a) { return std::optional<double>(a.usage.total_tokens()); }),
      spread_of(attempts, [](const AttemptResult& a) { return a.usage.cost_usd; })};
}

/// The judged attempts of `all`.
std::vector<const AttemptResult*> judged_of(const std::vector<const AttemptResult*>& all) {
  std::vector<const AttemptResult*> kept;
  std::copy_if(all.begin(), all.end(), std::back_inserter(kept), [](const AttemptResult* a) { return judged(*a); });
  return kept;
}

TaskStats stats_of(const std::vector<const AttemptResult*>& attempts) {
  TaskStats stats;
  stats.task_id = attempts.front()->task_id;
  stats.model = attempts.front()->model;
  for (const AttemptResult* attempt : attempts) add_to_totals(stats.totals, *attempt);
  stats.pass_at_k = pass_at_every_k(stats.judged(), stats.totals.passed);
  stats.pass_hat_k = pass_hat_every_k(stats.judged(), stats.totals.passed);
  stats.flaky = stats.totals.passed > 0 && stats.totals.failed > 0;
  stats.spreads = spreads_of(judged_of(attempts));
  return stats;
}

/// The attempts of each key, in order of first appearance.
template <typename KeyOf>
std::vector<std::vector<const AttemptResult*>> grouped(const RunReport& report, KeyOf key_of) {
  std::vector<std::vector<const AttemptResult*>> groups;
  std::map<decltype(key_of(report.attempts.front())), std::size_t> index;
  for (const AttemptResult& attempt : report.attempts) {
    auto [entry, fresh] = index.try_emplace(key_of(attempt), groups.size());
    if (fresh) groups.emplace_back();
    groups[entry->second].push_back(&attempt);
  }
  return groups;
}

/// pass@k averaged over the tasks, for each k that every task with a judged attempt reaches.
std::vector<double> mean_pass_at_k(const std::vector<const TaskStats*>& tasks) {
  std::size_t common = 0;
  bool first = true;
  for (const TaskStats* task : tasks) {
    common = first ? task->pass_at_k.size() : std::min(common, task->pass_at_k.size());
    first = false;
  }
  std::vector<double> means;
  for (std::size_t k = 0; k < common; ++k) {
    double sum = 0;
    for (const TaskStats* task : tasks) sum += task->pass_at_k[k];
    means.push_back(sum / double(tasks.size()));
  }
  return means;
}

ModelStats model_of(const std::vector<const AttemptResult*>& attempts, const std::vector<TaskStats>& all_tasks) {
  ModelStats stats;
  stats.model = attempts.front()->model;
  for (const AttemptResult* attempt : attempts) add_to_totals(stats.totals, *attempt);
  std::vector<const TaskStats*> tasks;
  for (const TaskStats& task : all_tasks) {
    if (task.model != stats.model || task.judged() == 0) continue;
    tasks.push_back(&task);
    stats.solved += task.totals.passed > 0;
    stats.flaky_tasks += task.flaky;
  }
  stats.tasks = static_cast<int>(tasks.size());
  stats.pass_at_k = mean_pass_at_k(tasks);
  if (stats.totals.passed > 0) {
    if (stats.totals.usage.cost_usd) stats.cost_per_pass = *stats.totals.usage.cost_usd / stats.totals.passed;
    stats.tokens_per_pass = double(stats.totals.usage.total_tokens()) / stats.totals.passed;
  }
  std::vector<const AttemptResult*> judged_attempts = judged_of(attempts);
  stats.turns = turns_of(judged_attempts);
  stats.duration_ms = time_of(judged_attempts);
  return stats;
}

}  // namespace

std::vector<TaskStats> task_stats(const RunReport& report) {
  std::vector<TaskStats> stats;
  auto key = [](const AttemptResult& a) { return std::pair(a.task_id, a.model); };
  for (const auto& attempts : grouped(report, key)) stats.push_back(stats_of(attempts));
  return stats;
}

std::vector<ModelStats> model_stats(const RunReport& report) {
  std::vector<TaskStats> tasks = task_stats(report);
  std::vector<ModelStats> models;
  for (const auto& attempts : grouped(report, [](const AttemptResult& a) { return a.model; })) {
    models.push_back(model_of(attempts, tasks));
  }
  return models;
}

}  // namespace agent_run
