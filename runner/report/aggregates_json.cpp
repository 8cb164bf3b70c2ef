#include "report/pass_at_k.h"
#include "report/report_writers.h"
#include "report/task_stats.h"

#include <cmath>

namespace agent_run {

namespace {

Json number_or_null(const std::optional<double>& value) { return value ? Json(*value) : Json(nullptr); }

/// A pass@k or pass^k list, each value rounded to six decimals so reports are stable to read.
Json fractions(const std::vector<double>& values) {
  Json json = Json::array();
  for (double value : values) json.push(std::round(value * 1e6) / 1e6);
  return json;
}

Json spread_to_json(const Spread& spread) {
  return Json::object().set("mean", number_or_null(spread.mean)).set("median", number_or_null(spread.median));
}

Json counts_to_json(const RunTotals& totals) {
  std::optional<double> rate;
  if (int judged = totals.passed + totals.failed; judged > 0) rate = double(totals.passed) / judged;
  Json json = Json::object();
  json.set("attempts", totals.attempts)
      .set("passed", totals.passed)
      .set("failed", totals.failed)
      .set("error", totals.error)
      .set("skipped", totals.skipped)
      .set("judged", totals.passed + totals.failed)
      .set("pass_rate", number_or_null(rate));
  return json;
}

Json task_to_json(const TaskStats& task) {
  Json json = Json::object();
  json.set("task_id", task.task_id)
      .set("model", task.model)
      .set("counts", counts_to_json(task.totals))
      .set("pass_at_k", fractions(task.pass_at_k))
      .set("pass_hat_k", fractions(task.pass_hat_k))
      .set("flaky", task.flaky)
      .set("turns", spread_to_json(task.spreads.turns))
      .set("duration_ms", spread_to_json(task.spreads.duration_ms))
      .set("tokens", spread_to_json(task.spreads.tokens))
      .set("cost_usd", spread_to_json(task.spreads.cost_usd));
  return json;
}

Json model_to_json(const ModelStats& model) {
  Json json = Json::object();
  json.set("model", model.model)
      .set("counts", counts_to_json(model.totals))
      .set("tasks", model.tasks)
      .set("solved_tasks", model.solved)
      .set("flaky_tasks", model.flaky_tasks)
      .set("pass_at_k", fractions(model.pass_at_k))
      .set("cost_per_pass_usd", number_or_null(model.cost_per_pass))
      .set("tokens_per_pass", number_or_null(model.tokens_per_pass))
      .set("turns", spread_to_json(model.turns))
      .set("duration_ms", spread_to_json(model.duration_ms));
  return json;
}

}  // namespace

Json aggregates_to_json(const RunReport& report) {
  Json tasks = Json::array();
  for (const TaskStats& task : task_stats(report)) tasks.push(task_to_json(task));
  Json models = Json::array();
  for (const ModelStats& model : model_stats(report)) models.push(model_to_json(model));
  return Json::object().set("tasks", std::move(tasks)).set("models", std::move(models));
}

}  // namespace agent_run
