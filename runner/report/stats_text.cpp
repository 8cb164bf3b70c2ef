#include "report/stats_text.h"

#include "report/figures.h"

#include <cmath>
#include <functional>

namespace agent_run {

std::string median_turns(const Spread& turns) {
  if (!turns.median) return "-";
  long long tenths = std::llround(*turns.median * 10);
  return std::to_string(tenths / 10) + (tenths % 10 ? "." + std::to_string(tenths % 10) : "");
}

std::string median_time(const Spread& duration_ms) {
  return duration_ms.median ? short_duration(static_cast<long long>(*duration_ms.median)) : "-";
}

std::vector<std::string> pass_texts(const TaskStats& task) {
  if (task.pass_at_k.empty()) return {"-", "-", "-"};
  return {percent(task.pass_at_k.front()), percent(task.pass_at_k.back()), percent(task.pass_hat_k.back())};
}

std::string matrix_cell(const std::vector<TaskStats>& stats, const std::string& task_id, const std::string& model) {
  for (const TaskStats& task : stats) {
    if (task.task_id != task_id || task.model != model) continue;
    if (task.judged() == 0) return "errors only";
    return std::to_string(task.totals.passed) + "/" + std::to_string(task.judged()) + (task.flaky ? " flaky" : "");
  }
  return "-";
}

std::vector<std::pair<std::string, std::vector<std::string>>> model_rows(const std::vector<ModelStats>& models) {
  using Cell = std::function<std::string(const ModelStats&)>;
  std::vector<std::pair<std::string, Cell>> rows = {
      {"Pass rate", [](const ModelStats& m) { return percent(pass_rate(m.totals)); }},
      {"pass@1", [](const ModelStats& m) { return m.pass_at_k.empty() ? "-" : percent(m.pass_at_k.front()); }},
      {"pass@k at the fewest judged",
       [](const ModelStats& m) {
         return m.pass_at_k.empty() ? "-"
                                    : percent(m.pass_at_k.back()) + " (k=" + std::to_string(m.pass_at_k.size()) + ")";
       }},
      {"Tasks solved",
       [](const ModelStats& m) { return std::to_string(m.solved) + " of " + std::to_string(m.tasks); }},
      {"Flaky tasks", [](const ModelStats& m) { return std::to_string(m.flaky_tasks); }},
      {"Cost per pass", [](const ModelStats& m) { return m.cost_per_pass ? dollars(m.cost_per_pass) : "-"; }},
      {"Tokens per pass",
       [](const ModelStats& m) {
         return m.tokens_per_pass ? token_count(static_cast<std::int64_t>(std::llround(*m.tokens_per_pass))) : "-";
       }},
      {"Median turns", [](const ModelStats& m) { return median_turns(m.turns); }},
      {"Median time", [](const ModelStats& m) { return median_time(m.duration_ms); }},
  };
  std::vector<std::pair<std::string, std::vector<std::string>>> texts;
  for (const auto& [label, cell] : rows) {
    std::vector<std::string> cells;
    for (const ModelStats& model : models) cells.push_back(cell(model));
    texts.emplace_back(label, std::move(cells));
  }
  return texts;
}

}  // namespace agent_run
