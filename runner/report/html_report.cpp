#include "report/html_report.h"

#include "report/aggregates.h"
#include "report/figures.h"
#include "report/html_aggregates.h"
#include "report/html_attempt.h"
#include "report/html_style.h"
#include "report/html_text.h"
#include "report/svg_chart.h"

#include <algorithm>
#include <map>

namespace agent_run {

namespace {

constexpr std::size_t k_chart_rows = 30;          // rows of a chart; the table lists them all
constexpr std::size_t k_failures_listed = 50;     // links in "What failed": the charts stay near the top
constexpr std::size_t k_patch_bytes = 16 * 1024;  // of one attempt's patch on the page
constexpr std::size_t k_all_patches_bytes = 2 * 1024 * 1024;
constexpr Outcome k_outcomes[] = {Outcome::passed, Outcome::failed, Outcome::error, Outcome::skipped};

std::string tile(const std::string& value, const std::string& label, const std::string& css_class = "") {
  return "<div class=\"tile " + css_class + "\"><b>" + html_text(value) + "</b><span>" + html_text(label) +
         "</span></div>";
}

std::string header_html(const RunReport& report, const RunTotals& totals) {
  std::string meta = "started " + report.started_at + " \xC2\xB7 took " + short_duration(report.duration_ms) +
                     " \xC2\xB7 agent-run " + report.runner_version;
  if (!report.policy_file.empty()) meta += " \xC2\xB7 policy " + report.policy_file;
  if (report.shard)
    meta += " \xC2\xB7 shard " + std::to_string(report.shard->index) + "/" + std::to_string(report.shard->total);
  if (report.interrupted) meta += " \xC2\xB7 interrupted";
  std::string html = "<h1>agent-run report</h1><p class=\"meta\">" + html_text(meta) + "</p><div class=\"tiles\">";
  html += tile(std::to_string(totals.attempts), "attempts") + tile(std::to_string(totals.passed), "passed", "passed");
  html += tile(std::to_string(totals.failed), "failed", "failed") +
          tile(std::to_string(totals.error), "could not be judged", "error");
  html += tile(std::to_string(totals.skipped), "skipped") + tile(percent(pass_rate(totals)), "pass rate (of judged)");
  html += tile(dollars(totals.usage.cost_usd), "cost") + tile(tokens_text(totals.usage), "tokens");
  html += tile(short_duration(totals.duration_ms), "attempt time") + "</div>";
  std::vector<ChartBar> parts = {{"passed", double(totals.passed), std::to_string(totals.passed), "pass"},
                                 {"failed", double(totals.failed), std::to_string(totals.failed), "fail"},
                                 {"error", double(totals.error), std::to_string(totals.error), "error"},
                                 {"skipped", double(totals.skipped), std::to_string(totals.skipped), "skip"}};
  return html + "<figure><figcaption>Attempts by outcome</figcaption>" + svg_stacked_bar("attempts by outcome", parts) +
         "</figure>";
}

/// `text` as a piece of an id: lower case letters and digits, each run of anything else one `-`.
std::string id_piece(std::string_view text) {
  std::string piece;
  for (char c : text) {
    const bool kept = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (kept || (c >= 'A' && c <= 'Z')) piece += static_cast<char>(kept ? c : c - 'A' + 'a');
    else if (!piece.empty() && piece.back() != '-') piece += '-';
  }
  while (!piece.empty() && piece.back() == '-') piece.pop_back();
  return piece;
}

/// Each attempt's section id, in the report's order: `task-ID-N`, with `-MODEL` when the page shows
/// several models, so that a link to an attempt holds in the next run of the same tasks; a name two
/// attempts would share gets `-2`, `-3`, ... after the first.
std::vector<std::string> attempt_anchors(const RunReport& report, bool show_model) {
  std::vector<std::string> anchors;
  std::map<std::string, std::size_t> seen;
  for (const AttemptResult& attempt : report.attempts) {
    std::string anchor = "task-" + id_piece(attempt.task_id) + "-" + std::to_string(attempt.n);
    if (show_model) anchor += "-" + id_piece(attempt.model);
    if (std::size_t times = ++seen[anchor]; times > 1) anchor += "-" + std::to_string(times);
    anchors.push_back(std::move(anchor));
  }
  return anchors;
}

std::string failures_html(const RunReport& report, bool show_model) {
  std::string items;
  std::size_t listed = 0;
  std::size_t failures = 0;
  const std::vector<std::string> anchors = attempt_anchors(report, show_model);
  for (std::size_t i = 0; i < report.attempts.size(); ++i) {
    const AttemptResult& attempt = report.attempts[i];
    if (attempt.outcome != Outcome::failed && attempt.outcome != Outcome::error) continue;
    if (++failures > k_failures_listed) continue;
    ++listed;
    items += "<li><a href=\"#" + anchors[i] + "\">" + outcome_html(attempt.outcome) + " " +
             html_text(attempt_label(attempt, show_model)) + "</a> <b>" + html_text(to_string(attempt.outcome_type)) +
             "</b>: " + html_text(attempt.message.substr(0, 300)) + "</li>";
  }
  std::string html = "<h2 id=\"failed\">What failed</h2>";
  if (failures == 0) return html + "<p>Every attempt that ran passed.</p>";
  html +=
      "<p class=\"note\">Each opens its attempt below: the failed check's output, the diagnostics left behind, "
      "the turn-by-turn timeline and the patch.</p><ul class=\"failures\">" +
      items + "</ul>";
  if (failures > listed) {
    html += "<p class=\"note\">and " + std::to_string(failures - listed) +
            " more: filter the attempts below by outcome.</p>";
  }
  return html;
}

/// A chart of one figure of each group: all groups when few, else those ranked first by `rank`.
template <typename Value, typename Text>
std::string group_chart(const std::string& caption, std::vector<AttemptGroup> groups, Value value, Text text,
                        bool lowest_first, const std::string& css_class, double max) {
  std::string note;
  if (groups.size() > k_chart_rows) {
    std::stable_sort(groups.begin(), groups.end(), [&](const AttemptGroup& a, const AttemptGroup& b) {
      return lowest_first ? value(a) < value(b) : value(a) > value(b);
    });
    note = " (the " + std::to_string(k_chart_rows) + (lowest_first ? " lowest" : " highest") + " of " +
           std::to_string(groups.size()) + ")";
    groups.resize(k_chart_rows);
  }
  std::vector<ChartBar> bars;
  for (const AttemptGroup& group : groups) bars.push_back({group.key, value(group), text(group), css_class});
  return "<figure><figcaption>" + html_text(caption + note) + "</figcaption>" + svg_bar_chart(caption, bars, max) +
         "</figure>";
}

std::string group_charts(const std::vector<AttemptGroup>& groups, const std::string& of) {
  auto rate = [](const AttemptGroup& g) { return pass_rate(g.totals).value_or(0.0); };
  auto cost = [](const AttemptGroup& g) { return g.totals.usage.cost_usd.value_or(0.0); };
  auto tokens = [](const AttemptGroup& g) { return double(g.totals.usage.total_tokens()); };
  std::string html = "<div class=\"charts\">";
  html += group_chart(
      "Pass rate per " + of, groups, rate, [](const AttemptGroup& g) { return percent(pass_rate(g.totals)); }, true,
      "pass", 1.0);
  html += group_chart(
      "Cost per " + of, groups, cost, [](const AttemptGroup& g) { return dollars(g.totals.usage.cost_usd); }, false,
      "bar", 0);
  html += group_chart(
      "Tokens per " + of, groups, tokens, [](const AttemptGroup& g) { return tokens_text(g.totals.usage); }, false,
      "bar", 0);
  return html + "</div>";
}

std::string group_table(const std::vector<AttemptGroup>& groups, const std::string& key) {
  std::string html = "<table><thead><tr><th>" + key +
                     "</th><th>Attempts</th><th>Passed</th><th>Failed</th><th>Errors</th><th>Pass rate</th>"
                     "<th>Cost</th><th>Tokens</th><th>Time</th></tr></thead><tbody>";
  for (const AttemptGroup& group : groups) {
    const RunTotals& totals = group.totals;
    html += "<tr><td>" + html_text(group.key) + "</td><td>" + std::to_string(totals.attempts) + "</td><td>" +
            std::to_string(totals.passed) + "</td><td>" + std::to_string(totals.failed) + "</td><td>" +
            std::to_string(totals.error) + "</td><td>" + percent(pass_rate(totals)) + "</td><td>" +
            dollars(totals.usage.cost_usd) + "</td><td>" + tokens_text(totals.usage) + "</td><td>" +
            short_duration(totals.duration_ms) + "</td></tr>";
  }
  return html + "</tbody></table>";
}

/// The per-task figures as charts and a table, then the table across each task's repeats.
std::string task_aggregates_html(const RunReport& report) {
  std::vector<AttemptGroup> tasks = group_by_task(report);
  return "<h2 id=\"tasks\">Tasks</h2>" + group_charts(tasks, "task") + group_table(tasks, "Task") +
         repeats_html(report);
}

std::string models_html(const RunReport& report) {
  if (!several_models(report)) return {};
  std::vector<AttemptGroup> models = group_by_model(report);
  return "<h2 id=\"models\">Models</h2>" + group_charts(models, "model") + group_table(models, "Model") +
         model_matrix_html(report);
}

/// The outcome and model filters: radio buttons before the list, and the CSS that hides the rest.
struct Filters {
  std::string inputs;
  std::string labels;
  std::string css;
};

Filters filters_of(const RunReport& report, const std::vector<AttemptGroup>& models) {
  Filters filters;
  RunTotals totals = compute_totals(report.attempts);
  auto add = [&](const std::string& group, const std::string& id, const std::string& label, const std::string& hide) {
    bool all = id.ends_with("-all");
    filters.inputs += "<input class=\"filter\" type=\"radio\" name=\"" + group + "\" id=\"" + id + "\"" +
                      (all ? " checked=\"checked\"" : "") + "/>";
    filters.labels += "<label for=\"" + id + "\">" + html_text(label) + "</label>";
    if (!hide.empty()) filters.css += "#" + id + ":checked~.attempts>details:not(." + hide + "){display:none}";
    filters.css += "#" + id + ":checked~.filters label[for=" + id +
                   "]{background:var(--accent);color:var(--bg);"
                   "border-color:var(--accent)}";
  };
  add("outcome", "o-all", "all " + std::to_string(totals.attempts), "");
  int counts[] = {totals.passed, totals.failed, totals.error, totals.skipped};
  for (std::size_t i = 0; i < 4; ++i) {
    std::string name = to_string(k_outcomes[i]);
    if (counts[i] > 0) add("outcome", "o-" + name, name + " " + std::to_string(counts[i]), name);
  }
  filters.labels += "</div><div class=\"filters\"><span>Model</span>";
  add("model", "m-all", "all", "");
  for (std::size_t i = 0; i < models.size(); ++i) {
    add("model", "m-" + std::to_string(i), models[i].key + " " + std::to_string(models[i].totals.attempts),
        "m" + std::to_string(i));
  }
  return filters;
}

/// Which attempts' patches the page shows: failures and errors first, then the rest, within the budget.
std::map<std::size_t, std::string> patches_shown(const RunReport& report, const PatchReader& read_patch) {
  std::map<std::size_t, std::string> patches;
  std::size_t budget = k_all_patches_bytes;
  for (bool failures : {true, false}) {
    for (std::size_t i = 0; i < report.attempts.size() && budget > 0; ++i) {
      const AttemptResult& attempt = report.attempts[i];
      bool failure = attempt.outcome == Outcome::failed || attempt.outcome == Outcome::error;
      if (failure != failures || attempt.patch_path.empty() || attempt.patch.files_changed == 0) continue;
      std::string patch = read_patch(attempt.patch_path, std::min(k_patch_bytes + 1, budget));
      budget -= std::min(budget, patch.size());
      if (!patch.empty()) patches[i] = std::move(patch);
    }
  }
  return patches;
}

/// The attempts section up to its first attempt: the heading and the filters' buttons and labels.
std::string attempts_head(const Filters& filters) {
  return "<h2 id=\"attempts\">Attempts</h2>" + filters.inputs + "<div class=\"filters\"><span>Outcome</span>" +
         filters.labels + "</div><div class=\"attempts\">\n";
}

/// Hands `write` the attempts one at a time, each with its patch when the page shows it.
void write_attempts(const RunReport& report, const std::vector<AttemptGroup>& models, const PatchReader& read_patch,
                    const WritePiece& write) {
  std::map<std::string, std::size_t> model_index;
  for (std::size_t i = 0; i < models.size(); ++i) model_index[models[i].key] = i;
  std::map<std::size_t, std::string> patches = patches_shown(report, read_patch);
  bool show_model = models.size() > 1;
  std::vector<std::string> anchors = attempt_anchors(report, show_model);
  for (std::size_t i = 0; i < report.attempts.size(); ++i) {
    const AttemptResult& attempt = report.attempts[i];
    AttemptView view{std::move(anchors[i]), show_model, model_index[attempt.model], {}, false};
    if (auto patch = patches.find(i); patch != patches.end()) {
      view.patch_cut = patch->second.size() > k_patch_bytes;
      view.patch =
          view.patch_cut ? patch->second.substr(0, patch->second.rfind('\n', k_patch_bytes) + 1) : patch->second;
      patches.erase(patch);
    }
    write(attempt_html(attempt, view));
  }
}

}  // namespace

void write_report_html(const RunReport& report, const PatchReader& read_patch, const WritePiece& write) {
  RunTotals totals = compute_totals(report.attempts);
  std::vector<AttemptGroup> models = group_by_model(report);
  Filters filters = filters_of(report, models);
  std::string title =
      "agent-run: " + std::to_string(totals.passed) + " of " + std::to_string(totals.attempts) + " passed";
  write("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>"
        "<meta name=\"color-scheme\" content=\"light dark\"/><title>" +
        html_text(title) + "</title><style>" + k_report_css + filters.css + "</style></head><body><main>");
  write(header_html(report, totals) + failures_html(report, several_models(report)));
  write(task_aggregates_html(report) + models_html(report) + attempts_head(filters));
  write_attempts(report, models, read_patch, write);
  write("</div></main></body></html>\n");
}

std::string report_to_html(const RunReport& report, const PatchReader& read_patch) {
  std::string page;
  write_report_html(report, read_patch, [&](std::string_view piece) { page += piece; });
  return page;
}

}  // namespace agent_run
