#include "report/comparison_text.h"

#include "report/figures.h"
#include "report/html_style.h"
#include "report/html_text.h"

#include <cmath>
#include <cstdio>

namespace agent_run {

namespace {

std::string signed_text(double value, const std::string& unit) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%+.1f", value * 100);
  return buffer + unit;
}

std::string metric_cell(const MetricChange& metric, const std::optional<double>& value) {
  if (!value) return "-";
  if (metric.name == "pass_rate") return percent(*value);
  if (metric.name == "cost_per_attempt_usd") return dollars(*value);
  if (metric.name == "tokens_per_attempt") return token_count(static_cast<std::int64_t>(std::llround(*value)));
  return short_duration(static_cast<long long>(std::llround(*value)));
}

std::string metrics_html(const RunComparison& comparison) {
  std::string html = "<table><thead><tr><th></th><th>Base</th><th>Head</th><th>Change</th><th>" +
                     std::to_string(static_cast<int>(std::lround((1 - comparison.settings.alpha) * 100))) +
                     "% interval</th><th></th></tr></thead><tbody>";
  for (const MetricChange& metric : comparison.metrics) {
    std::string unit = metric.name == "pass_rate" ? " pts" : "%";
    std::string interval = metric.interval ? signed_text(metric.interval->low, unit) + " to " +
                                                 signed_text(metric.interval->high, unit)
                                           : "-";
    html += "<tr><td>" + html_text(metric.name) + "</td><td>" + html_text(metric_cell(metric, metric.base)) +
            "</td><td>" + html_text(metric_cell(metric, metric.head)) + "</td><td>" +
            html_text(metric.change ? signed_text(*metric.change, unit) : "-") + "</td><td>" + html_text(interval) +
            "</td><td>" + (metric.regression ? "<b class=\"fail\">regression</b>" : "") + "</td></tr>";
  }
  return html + "</tbody></table>";
}

std::string tasks_html(const RunComparison& comparison) {
  std::string html =
      "<h2>Tasks</h2><table><thead><tr><th>Task</th><th>Base passed</th><th>Head passed</th><th>Change</th>"
      "<th>p</th><th></th></tr></thead><tbody>";
  for (const TaskComparison& task : comparison.tasks) {
    bool rise = task.change == "better" || task.change == "newly passing";
    char p[32];
    std::snprintf(p, sizeof p, "%.3g", rise ? task.p_better : task.p_worse);
    std::string verdict = task.regression     ? "<b class=\"fail\">regression</b>"
                          : task.improvement  ? "<b class=\"pass\">improvement</b>"
                          : task.change == "same" ? ""
                                                  : "within the noise";
    html += "<tr><td>" + html_text(task.key) + "</td><td>" + std::to_string(task.base_passed) + "/" +
            std::to_string(task.base_judged) + "</td><td>" + std::to_string(task.head_passed) + "/" +
            std::to_string(task.head_judged) + "</td><td>" + html_text(task.change) + "</td><td>" +
            (task.change == "same" || task.change == "not judged" ? "-" : std::string(p)) + "</td><td>" + verdict +
            "</td></tr>";
  }
  return html + "</tbody></table>";
}

std::string listed_html(const std::string& label, const std::vector<std::string>& keys) {
  if (keys.empty()) return {};
  std::string text;
  for (const std::string& key : keys) text += (text.empty() ? "" : ", ") + key;
  return "<p class=\"note\">" + html_text(label + text) + "</p>";
}

}  // namespace

std::string comparison_html(const RunComparison& comparison, const std::string& base, const std::string& head) {
  const CompareSettings& settings = comparison.settings;
  std::string verdict = comparison.regressed() ? "<p><b class=\"fail\">Regression outside the noise:</b></p><ul>"
                                               : "<p><b class=\"pass\">No regression outside the noise.</b></p>";
  if (comparison.regressed()) {
    for (const std::string& regression : comparison.regressions) verdict += "<li>" + html_text(regression) + "</li>";
    verdict += "</ul>";
  }
  std::string method = "Paired bootstrap over the " + std::to_string(comparison.tasks.size()) +
                       " tasks in both runs and their attempts, " + std::to_string(settings.resamples) +
                       " resamples, seed " + std::to_string(settings.seed) +
                       "; per task, Fisher's exact test, one-sided. Errors and skips are left out of pass rates.";
  std::string body = "<h1>agent-run compare</h1><p class=\"meta\">" + html_text(base + " \xE2\x86\x92 " + head) +
                     "</p>" + verdict + metrics_html(comparison) + "<p class=\"note\">" + html_text(method) + "</p>" +
                     tasks_html(comparison) + listed_html("Only in the base run (not compared): ", comparison.only_in_base) +
                     listed_html("Only in the head run (not compared): ", comparison.only_in_head);
  return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>"
         "<meta name=\"color-scheme\" content=\"light dark\"/><title>agent-run compare</title><style>" +
         std::string(k_report_css) + "b.fail{color:var(--fail)}b.pass{color:var(--pass)}</style></head><body><main>" +
         body + "</main></body></html>\n";
}

}  // namespace agent_run
