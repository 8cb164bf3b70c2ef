#include "report/html_aggregates.h"

#include "report/aggregates.h"
#include "report/figures.h"
#include "report/html_text.h"
#include "report/stats_text.h"

#include <algorithm>

namespace agent_run {

namespace {

std::string cells(const std::vector<std::string>& texts, const char* tag = "td") {
  std::string html;
  for (const std::string& text : texts) html += "<" + std::string(tag) + ">" + html_text(text) + "</" + tag + ">";
  return html;
}

}  // namespace

std::string repeats_html(const RunReport& report) {
  std::vector<TaskStats> stats = task_stats(report);
  if (std::none_of(stats.begin(), stats.end(), [](const TaskStats& s) { return s.totals.attempts > 1; })) return {};
  bool show_model = several_models(report);
  std::vector<std::string> head = {"Task"};
  if (show_model) head.push_back("Model");
  for (const char* column :
       {"Judged", "Errors", "pass@1", "pass@n", "pass^n", "Flaky", "Median turns", "Median time", "Mean cost"})
    head.push_back(column);
  std::string html =
      "<h2 id=\"repeats\">Across attempts</h2><p class=\"note\">pass@k is the unbiased estimator over the n judged "
      "attempts (errors and skips left out); pass^n is the chance that all n pass.</p><table><thead><tr>" +
      cells(head, "th") + "</tr></thead><tbody>";
  for (const TaskStats& task : stats) {
    std::vector<std::string> row = {task.task_id};
    if (show_model) row.push_back(task.model);
    std::vector<std::string> passes = pass_texts(task);
    row.insert(row.end(), {std::to_string(task.judged()), std::to_string(task.totals.error), passes[0], passes[1],
                           passes[2], task.flaky ? "flaky" : "", median_turns(task.spreads.turns),
                           median_time(task.spreads.duration_ms), dollars(task.spreads.cost_usd.mean)});
    html += std::string(task.flaky ? "<tr class=\"flaky\">" : "<tr>") + cells(row) + "</tr>";
  }
  return html + "</tbody></table>";
}

std::string model_matrix_html(const RunReport& report) {
  if (!several_models(report)) return {};
  std::vector<ModelStats> models = model_stats(report);
  std::vector<TaskStats> stats = task_stats(report);
  std::vector<std::string> head = {"Task"};
  for (const ModelStats& model : models) head.push_back(model.model);
  std::string html =
      "<h2 id=\"matrix\">Model matrix</h2><p class=\"note\">Passes of the judged attempts per task; below, each "
      "model over all its tasks.</p><table><thead><tr>" +
      cells(head, "th") + "</tr></thead><tbody>";
  for (const AttemptGroup& task : group_by_task(report)) {
    std::vector<std::string> row = {task.key};
    for (const ModelStats& model : models) row.push_back(matrix_cell(stats, task.key, model.model));
    html += "<tr>" + cells(row) + "</tr>";
  }
  html += "</tbody><tbody class=\"overall\">";
  for (const auto& [label, texts] : model_rows(models)) {
    html += "<tr><th>" + html_text(label) + "</th>" + cells(texts) + "</tr>";
  }
  return html + "</tbody></table>";
}

}  // namespace agent_run
