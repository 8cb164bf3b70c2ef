#include "report/comparison_text.h"

#include "report/figures.h"
#include "report/markdown_text.h"

#include <cmath>
#include <cstdio>

namespace agent_run {

namespace {

std::string signed_fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%+.*f", decimals, value);
  return buffer;
}

std::string p_value(double p) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, p < 0.001 ? "%.1e" : "%.3f", p);
  return buffer;
}

int confidence(const CompareSettings& settings) { return static_cast<int>(std::lround((1 - settings.alpha) * 100)); }

/// A metric's value as a person reads it.
std::string value_text(const MetricChange& metric, const std::optional<double>& value) {
  if (!value) return "-";
  if (metric.name == "pass_rate") return percent(*value);
  if (metric.name == "cost_per_attempt_usd") return dollars(*value);
  if (metric.name == "tokens_per_attempt") return token_count(static_cast<std::int64_t>(std::llround(*value)));
  return short_duration(static_cast<long long>(std::llround(*value)));
}

/// A change as points (pass rate) or percent (the others).
std::string change_text(const MetricChange& metric, double change) {
  return signed_fixed(change * 100, 1) + (metric.name == "pass_rate" ? " pts" : "%");
}

const char* metric_label(const std::string& name) {
  if (name == "pass_rate") return "Pass rate (judged attempts)";
  if (name == "cost_per_attempt_usd") return "Cost per attempt";
  if (name == "tokens_per_attempt") return "Tokens per attempt";
  return "Time per attempt";
}

std::string metrics_table(const RunComparison& comparison) {
  std::string table = "| | Base | Head | Change | " + std::to_string(confidence(comparison.settings)) +
                      "% interval | Allowed | |\n|---|---:|---:|---:|---:|---:|---|\n";
  for (const MetricChange& metric : comparison.metrics) {
    double sign = metric.name == "pass_rate" && metric.threshold && *metric.threshold > 0 ? -1 : 1;  // no "-0.0"
    std::string allowed = metric.threshold ? change_text(metric, sign * *metric.threshold) : "-";
    std::string interval = metric.interval ? change_text(metric, metric.interval->low) + " to " +
                                                 change_text(metric, metric.interval->high)
                                           : "-";
    table += std::string("| ") + metric_label(metric.name) + " | " + value_text(metric, metric.base) + " | " +
             value_text(metric, metric.head) + " | " + (metric.change ? change_text(metric, *metric.change) : "-") +
             " | " + interval + " | " + allowed + " | " + (metric.regression ? "**regression**" : "") + " |\n";
  }
  return table + "\n";
}

std::string method_text(const RunComparison& comparison) {
  const CompareSettings& settings = comparison.settings;
  return "Method: a paired bootstrap over the " + std::to_string(comparison.tasks.size()) +
         " tasks in both runs (tasks drawn with replacement, then each task's attempts in each run), " +
         std::to_string(settings.resamples) + " resamples, seed " + std::to_string(settings.seed) +
         "; per task, Fisher's exact test, one-sided, alpha " + p_value(settings.alpha) +
         ". A change is a regression only when it lies outside the noise: the whole interval beyond the allowed "
         "change, or a task's drop beyond it with p < alpha. Errors and skipped attempts are left out of pass "
         "rates.\n\n";
}

/// A task's verdict: a drop that is not noise yet not a regression is one the allowed drop covers.
std::string verdict(const TaskComparison& task, const CompareSettings& settings) {
  if (task.regression) return "**regression**";
  if (task.improvement) return "**improvement**";
  if (task.change == "same" || task.change == "not judged") return "";
  const bool drop = task.change == "worse" || task.change == "newly failing";
  if (drop && task.p_worse < settings.alpha) return "a real drop, within the allowed one (--max-pass-rate-drop)";
  return "within the noise";
}

std::string count_text(int passed, int judged, int errors) {
  return std::to_string(passed) + "/" + std::to_string(judged) + (errors ? " (+" + std::to_string(errors) + " errors)" : "");
}

std::string tasks_table(const RunComparison& comparison) {
  std::string rows;
  int unchanged = 0;
  for (const TaskComparison& task : comparison.tasks) {
    if (task.change == "same") {
      ++unchanged;
      continue;
    }
    double p = task.change == "better" || task.change == "newly passing" ? task.p_better : task.p_worse;
    rows += "| " + markdown_text(task.key, 160) + " | " + count_text(task.base_passed, task.base_judged, task.base_errors) +
            " | " + count_text(task.head_passed, task.head_judged, task.head_errors) + " | " + task.change + " | " +
            (task.change == "not judged" ? "-" : p_value(p)) + " | " + verdict(task, comparison.settings) + " |\n";
  }
  std::string text = "### Tasks that changed\n\n";
  if (rows.empty()) text += "None.";
  else text += "| Task | Base passed | Head passed | Change | p | |\n|---|---:|---:|---|---:|---|\n" + rows;
  return text + "\n" + std::to_string(unchanged) + " of " + std::to_string(comparison.tasks.size()) +
         " tasks in both runs passed as often in each.\n\n";
}

std::string listed(const std::vector<std::string>& keys) {
  std::string text;
  for (const std::string& key : keys) text += (text.empty() ? "" : ", ") + markdown_text(key, 160);
  return text;
}

}  // namespace

std::string comparison_markdown(const RunComparison& comparison, const std::string& base, const std::string& head) {
  std::string text = "## agent-run compare: " + markdown_text(base, 200) + " \xE2\x86\x92 " + markdown_text(head, 200) +
                     "\n\n";
  if (comparison.regressed()) {
    text += "**Regression outside the noise:**\n\n";
    for (const std::string& regression : comparison.regressions) text += "- " + markdown_text(regression, 400) + "\n";
    text += "\n";
  } else {
    text += "**No regression outside the noise.**\n\n";
  }
  text += metrics_table(comparison) + method_text(comparison) + tasks_table(comparison);
  if (!comparison.only_in_base.empty())
    text += "Only in the base run (not compared): " + listed(comparison.only_in_base) + "\n\n";
  if (!comparison.only_in_head.empty())
    text += "Only in the head run (not compared): " + listed(comparison.only_in_head) + "\n\n";
  return text;
}

Json comparison_to_json(const RunComparison& comparison, const std::string& base, const std::string& head) {
  auto optional_number = [](const std::optional<double>& value) { return value ? Json(*value) : Json(nullptr); };
  const CompareSettings& settings = comparison.settings;
  Json method = Json::object();
  method.set("bootstrap", "paired over tasks, then attempts")
      .set("resamples", settings.resamples)
      .set("seed", static_cast<long long>(settings.seed))
      .set("task_test", "fisher_exact_one_sided")
      .set("alpha", settings.alpha);
  Json metrics = Json::array();
  for (const MetricChange& metric : comparison.metrics) {
    Json interval = metric.interval ? Json::array() : Json(nullptr);
    if (metric.interval) {
      interval.push(metric.interval->low);
      interval.push(metric.interval->high);
    }
    metrics.push(Json::object()
                     .set("name", metric.name)
                     .set("base", optional_number(metric.base))
                     .set("head", optional_number(metric.head))
                     .set("change", optional_number(metric.change))
                     .set("interval", std::move(interval))
                     .set("allowed", optional_number(metric.threshold))
                     .set("regression", metric.regression));
  }
  Json tasks = Json::array();
  for (const TaskComparison& task : comparison.tasks) {
    tasks.push(Json::object()
                   .set("task", task.key)
                   .set("base", Json::object().set("passed", task.base_passed).set("judged", task.base_judged).set("error", task.base_errors))
                   .set("head", Json::object().set("passed", task.head_passed).set("judged", task.head_judged).set("error", task.head_errors))
                   .set("change", task.change)
                   .set("p_worse", task.p_worse)
                   .set("p_better", task.p_better)
                   .set("regression", task.regression)
                   .set("improvement", task.improvement));
  }
  Json strings = Json::array();
  for (const std::string& regression : comparison.regressions) strings.push(regression);
  auto names = [](const std::vector<std::string>& keys) {
    Json json = Json::array();
    for (const std::string& key : keys) json.push(key);
    return json;
  };
  Json json = Json::object();
  json.set("schema", "agent-run-compare/1")
      .set("base", base)
      .set("head", head)
      .set("regressed", comparison.regressed())
      .set("regressions", std::move(strings))
      .set("method", std::move(method))
      .set("metrics", std::move(metrics))
      .set("tasks", std::move(tasks))
      .set("only_in_base", names(comparison.only_in_base))
      .set("only_in_head", names(comparison.only_in_head));
  return json;
}

}  // namespace agent_run
