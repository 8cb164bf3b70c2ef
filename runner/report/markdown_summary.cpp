#include "report/markdown_summary.h"

#include "base/text.h"
#include "report/aggregates.h"
#include "report/figures.h"
#include "report/left_behind.h"
#include "report/markdown_text.h"
#include "report/stats_text.h"

#include <algorithm>
#include <map>

namespace agent_run {

namespace {

constexpr std::size_t k_note_bytes = 256;          // kept free for the note that says a section was cut
constexpr std::size_t k_output_tail_bytes = 2048;  // of a failed check's output
constexpr std::size_t k_output_tail_lines = 20;
constexpr std::size_t k_problems_shown = 5;  // diagnostics left behind, per attempt
constexpr std::size_t k_final_message_bytes = 4096;

/// A part of the summary: blocks (a heading with a table's header, a table row, a paragraph) that
/// are each kept whole or left out, and what the blocks after the first are called in the note.
struct Section {
  std::vector<std::string> blocks;
  std::string unit;  // "tasks", "failures", ...
};

/// Markdown added section by section within a byte budget.
class Budget {
 public:
  explicit Budget(std::size_t max_bytes) : m_max(max_bytes) {}

  /// Adds the blocks of `section` that fit in `share` bytes (and in what is left), then a note
  /// when some were left out.
  void add(const Section& section, std::size_t share) {
    if (section.blocks.empty()) return;
    std::size_t limit = std::min(left(), share);
    std::size_t used = 0;
    std::size_t kept = 0;
    for (const std::string& block : section.blocks) {
      if (used + block.size() + k_note_bytes > limit) break;
      m_text += block;
      used += block.size();
      ++kept;
    }
    if (kept < section.blocks.size()) note(section, kept);
  }
  std::size_t left() const { return m_text.size() >= m_max ? 0 : m_max - m_text.size(); }
  std::size_t max() const { return m_max; }
  std::string take() { return std::move(m_text); }

 private:
  void note(const Section& section, std::size_t kept) {
    std::string what = kept == 0 ? "The " + section.unit + " were"
                                 : std::to_string(section.blocks.size() - kept) + " more " + section.unit;
    std::string text = "\n*" + what + " left out to stay under GitHub's 1 MiB step summary limit; report.html and " +
                       "report.json have them all.*\n\n";
    if (m_text.size() + text.size() <= m_max) m_text += text;
  }

  std::size_t m_max;
  std::string m_text;
};

const char* outcome_mark(Outcome outcome) {
  switch (outcome) {
    case Outcome::passed: return "\xE2\x9C\x85";               // ✅
    case Outcome::failed: return "\xE2\x9D\x8C";               // ❌
    case Outcome::error: return "\xE2\x9A\xA0\xEF\xB8\x8F";    // ⚠️
    case Outcome::skipped: return "\xE2\x8F\xAD\xEF\xB8\x8F";  // ⏭️
  }
  return "";
}

std::string headline(const RunReport& report, const RunTotals& totals) {
  Outcome overall = totals.failed ? Outcome::failed : totals.error ? Outcome::error : Outcome::passed;
  std::string line = "## " + std::string(outcome_mark(overall)) + " agent-run: " + std::to_string(totals.passed) +
                     " of " + std::to_string(totals.attempts) + " attempts passed";
  if (totals.failed) line += ", " + std::to_string(totals.failed) + " failed";
  if (totals.error) line += ", " + std::to_string(totals.error) + " could not be judged";
  if (totals.skipped) line += ", " + std::to_string(totals.skipped) + " skipped";
  if (report.interrupted) line += " (interrupted)";
  line += "\n\n";
  const long long for_budget = std::count_if(report.attempts.begin(), report.attempts.end(), [](const AttemptResult& a) {
    return a.outcome_type == OutcomeType::run_budget;
  });
  if (for_budget > 0) {
    line += std::to_string(for_budget) + (for_budget == 1 ? " attempt was" : " attempts were") +
            " not started: the run's budget (--max-cost or --max-time) was reached.\n\n";
  }
  return line;
}

/// The header and separator of a table; `figures` says which columns are figures, aligned right
/// (`"lrrr"`: the first is text, the rest figures; missing letters mean figures).
std::string table_head(const std::vector<std::string>& columns, std::string_view figures = "l") {
  std::string head = "|";
  std::string rule = "|";
  for (std::size_t i = 0; i < columns.size(); ++i) {
    head += " " + columns[i] + " |";
    rule += i < figures.size() && figures[i] == 'l' ? "---|" : "---:|";
  }
  return head + "\n" + rule + "\n";
}

const std::vector<std::string> k_figure_columns = {"Attempts",  "Passed", "Failed", "Errors", "Skipped",
                                                   "Pass rate", "Cost",   "Tokens", "Time"};

std::string figure_cells(const RunTotals& totals) {
  return " " + std::to_string(totals.attempts) + " | " + std::to_string(totals.passed) + " | " +
         std::to_string(totals.failed) + " | " + std::to_string(totals.error) + " | " + std::to_string(totals.skipped) +
         " | " + percent(pass_rate(totals)) +
         " | " + dollars(totals.usage.cost_usd) + " | " + tokens_text(totals.usage) + " | " +
         short_duration(totals.duration_ms) + " |\n";
}

Section totals_section(const RunReport& report, const RunTotals& totals) {
  const Usage& usage = totals.usage;
  std::string block = headline(report, totals);
  block += table_head(k_figure_columns) + "|" + figure_cells(totals);
  block += "\nTokens: " + std::to_string(usage.input_tokens) + " input, " + std::to_string(usage.output_tokens) +
           " output, " + std::to_string(usage.cache_read_input_tokens) + " cache read, " +
           std::to_string(usage.cache_creation_input_tokens) + " cache write" +
           (usage.estimated ? " (estimated)" : "") + ". Tool calls: " + std::to_string(totals.tool_calls) + ", " +
           std::to_string(totals.denied) + " denied. Time is the attempts' own, added up; the run took " +
           short_duration(report.duration_ms) + ".";
  if (report.shard) {
    block += " Shard " + std::to_string(report.shard->index) + " of " + std::to_string(report.shard->total) + ".";
  }
  return Section{{block + "\n\n"}, "lines"};
}

Section group_table(const std::vector<AttemptGroup>& groups, const std::string& heading, const std::string& key,
                    const std::string& unit) {
  std::vector<std::string> columns = {key};
  columns.insert(columns.end(), k_figure_columns.begin(), k_figure_columns.end());
  Section section{{"### " + heading + "\n\n" + table_head(columns)}, unit};
  for (const AttemptGroup& group : groups) {
    section.blocks.push_back("| " + markdown_text(group.key, 120) + " |" + figure_cells(group.totals));
  }
  section.blocks.back() += "\n";
  return section;
}

/// The per-task figures: the table per task.
Section task_aggregates_section(const RunReport& report) {
  return group_table(group_by_task(report), "Tasks", "Task", "tasks");
}

/// Across the repeats of each task (and model): pass@k, pass^k, flaky and the typical attempt. Only
/// when some task ran more than once, where these say more than the pass rate.
Section repeats_section(const RunReport& report) {
  std::vector<TaskStats> stats = task_stats(report);
  bool repeated = std::any_of(stats.begin(), stats.end(), [](const TaskStats& s) { return s.totals.attempts > 1; });
  if (!repeated) return {};
  bool show_model = several_models(report);
  std::vector<std::string> columns = {"Task"};
  if (show_model) columns.push_back("Model");
  for (const char* column :
       {"Judged", "Errors", "pass@1", "pass@n", "pass^n", "Flaky", "Median turns", "Median time", "Mean cost"})
    columns.push_back(markdown_text(column, 40));  // `@` escaped: GitHub would read @n as a mention
  Section section{{"### Across attempts\n\npass\\@k is the unbiased estimator over the n judged attempts (errors "
                   "and skips left out); pass^n is the chance that all n pass.\n\n" +
                   table_head(columns, show_model ? "ll" : "l")},
                  "tasks"};
  for (const TaskStats& task : stats) {
    std::vector<std::string> passes = pass_texts(task);
    std::string row = "| " + markdown_text(task.task_id, 120) + " |";
    if (show_model) row += " " + markdown_text(task.model, 80) + " |";
    row += " " + std::to_string(task.judged()) + " | " + std::to_string(task.totals.error) + " | " + passes[0] +
           " | " + passes[1] + " | " + passes[2] + " | " + (task.flaky ? "flaky" : "") + " | " +
           median_turns(task.spreads.turns) + " | " + median_time(task.spreads.duration_ms) + " | " +
           dollars(task.spreads.cost_usd.mean) + " |\n";
    section.blocks.push_back(row);
  }
  section.blocks.back() += "\n";
  return section;
}

/// Several models side by side: passes per task, then each model's pass rate, pass@k, cost and
/// tokens per pass, median turns and time.
Section model_matrix_section(const RunReport& report) {
  if (!several_models(report)) return {};
  std::vector<ModelStats> models = model_stats(report);
  std::vector<TaskStats> stats = task_stats(report);
  std::vector<std::string> columns = {"Task"};
  for (const ModelStats& model : models) columns.push_back(markdown_text(model.model, 80));
  Section section{{"### Model matrix\n\nPasses of the judged attempts per task; below, each model over all its "
                   "tasks.\n\n" +
                   table_head(columns)},
                  "rows"};
  for (const AttemptGroup& task : group_by_task(report)) {
    std::string row = "| " + markdown_text(task.key, 120) + " |";
    for (const ModelStats& model : models) row += " " + matrix_cell(stats, task.key, model.model) + " |";
    section.blocks.push_back(row + "\n");
  }
  for (const auto& [label, cells] : model_rows(models)) {
    std::string row = "| **" + markdown_text(label, 80) + "** |";
    for (const std::string& cell : cells) row += " " + markdown_text(cell, 80) + " |";
    section.blocks.push_back(row + "\n");
  }
  section.blocks.back() += "\n";
  return section;
}

Section model_section(const RunReport& report) {
  if (!several_models(report)) return {};
  return group_table(group_by_model(report), "Models", "Model", "models");
}

/// The last k_output_tail_lines lines of a command's output.
std::string last_lines(std::string_view output) {
  std::size_t end = output.size();
  if (end > 0 && output[end - 1] == '\n') --end;
  std::size_t start = end;
  for (std::size_t lines = 0; lines < k_output_tail_lines && start > 0; ++lines) {
    std::size_t newline = output.rfind('\n', start - 1);
    start = newline == std::string_view::npos ? 0 : newline;
  }
  return std::string(output.substr(start == 0 ? 0 : start + 1));
}

const CheckRecord* first_failed(const std::vector<CheckRecord>& checks) {
  for (const CheckRecord& check : checks) {
    if (!check.passed) return &check;
  }
  return nullptr;
}

std::string failed_command_block(const char* kind, const CheckRecord& check) {
  std::string how = check.timed_out ? "timed out" : "exited " + std::to_string(check.exit_code);
  std::string block = std::string(kind) + " " + markdown_text(check.run, 200) + " " + how + " after " +
                      short_duration(check.duration_ms) + ":\n\n";
  return block + markdown_code_block(last_lines(check.output_tail), "text", k_output_tail_bytes) + "\n";
}

std::string problems_block(const AttemptResult& attempt) {
  std::vector<Problem> left = problems_left_behind(attempt);
  if (left.empty()) return {};
  std::string block = "Diagnostics left behind (" + std::to_string(left.size()) + "):\n\n";
  for (std::size_t i = 0; i < left.size() && i < k_problems_shown; ++i) {
    const Problem& problem = left[i];
    std::string where =
        problem.path +
        (problem.line > 0 ? ":" + std::to_string(problem.line) + ":" + std::to_string(problem.column) : "");
    block += "- **" + markdown_text(where, 200) + "** " + markdown_text(problem.severity, 20) + ": " +
             markdown_text(problem.message, 300) +
             (problem.code.empty() ? "" : " \\[" + markdown_text(problem.code, 60) + "\\]") + "\n";
  }
  if (left.size() > k_problems_shown) block += "- and " + std::to_string(left.size() - k_problems_shown) + " more\n";
  return block + "\n";
}

constexpr std::size_t k_edits_shown = 20;          // per attempt
constexpr std::size_t k_edit_problems_shown = 3;   // per edit

std::string problem_item(const Problem& problem) {
  std::string where =
      problem.path + (problem.line > 0 ? ":" + std::to_string(problem.line) + ":" + std::to_string(problem.column) : "");
  return "**" + markdown_text(where, 200) + "** " + markdown_text(problem.severity, 20) + ": " +
         markdown_text(problem.message, 300) +
         (problem.code.empty() ? "" : " \\[" + markdown_text(problem.code, 60) + "\\]");
}

/// What one edit's tool result told the model: its checker's answer (the problems it showed, or
/// that it gave none in time), then the task's `during: edit` checks run after it.
std::string edit_item(const EditRecord& edit) {
  std::string item = "- " + markdown_text(edit.tool, 40) + " " + markdown_text(edit.path, 200) + " (turn " +
                     std::to_string(edit.turn) + "): ";
  if (!edit.diagnostics) {
    item += "diagnostics off\n";
  } else {
    const EditDiagnostics& seen = *edit.diagnostics;
    const std::string checker = seen.checker.empty() ? "no checker" : seen.checker;
    item += markdown_text(checker, 80) + ": ";
    if (seen.status == "timeout") item += "no answer in time\n";
    else if (seen.status == "problems") {
      item += std::to_string(seen.problems.size()) + (seen.problems.size() == 1 ? " problem" : " problems") + " (" +
              std::to_string(seen.introduced.size()) + " new)\n";
    } else item += markdown_text(seen.status, 40) + "\n";
    for (std::size_t i = 0; i < seen.problems.size() && i < k_edit_problems_shown; ++i) {
      item += "  - " + std::string(seen.problems[i].other_file ? "\\[other file\\] " : "") +
              problem_item(seen.problems[i]) + "\n";
    }
    if (seen.problems.size() > k_edit_problems_shown) {
      item += "  - and " + std::to_string(seen.problems.size() - k_edit_problems_shown) + " more\n";
    }
  }
  for (const CheckRecord& check : edit.checks) {
    std::string how = check.passed ? "passed" : check.timed_out ? "timed out" : "exited " + std::to_string(check.exit_code);
    item += "  - during the edit, " + markdown_text(check.run, 200) + " " + how + " after " +
            short_duration(check.duration_ms) + "\n";
    if (!check.passed && !check.output_tail.empty()) {
      std::string tail = last_lines(check.output_tail);
      std::string indented;
      for (const std::string& line : split(markdown_code_block(tail, "text", k_output_tail_bytes), '\n')) {
        if (!line.empty()) indented += "    " + line + "\n";  // inside the list item
      }
      item += "\n" + indented + "\n";
    }
  }
  return item;
}

std::string edits_block(const AttemptResult& attempt) {
  if (attempt.edits.empty()) return {};
  std::string block = "Edits (" + std::to_string(attempt.edits.size()) + "), as the model saw them:\n\n";
  for (std::size_t i = 0; i < attempt.edits.size() && i < k_edits_shown; ++i) block += edit_item(attempt.edits[i]);
  if (attempt.edits.size() > k_edits_shown) {
    block += "- and " + std::to_string(attempt.edits.size() - k_edits_shown) + " more\n";
  }
  return block + "\n";
}

std::string failure_block(const AttemptResult& attempt, bool show_model) {
  std::string block = "#### " + std::string(outcome_mark(attempt.outcome)) + " " +
                      markdown_text(attempt_label(attempt, show_model), 200) + "\n\n";
  block += "**" + markdown_text(to_string(attempt.outcome_type), 80) + "**: " + markdown_text(attempt.message, 500) +
           " (" + markdown_text(attempt.model, 100) + ", " + std::to_string(attempt.turns) + " turns, " +
           short_duration(attempt.durations.total_ms) + ", " + dollars(attempt.usage.cost_usd) + ")\n\n";
  if (const CheckRecord* setup = first_failed(attempt.setup)) block += failed_command_block("Setup", *setup);
  if (const CheckRecord* check = first_failed(attempt.checks)) block += failed_command_block("Check", *check);
  return block + problems_block(attempt) + edits_block(attempt);
}

Section failures_section(const RunReport& report) {
  Section section{{"### Failures and errors\n\n"}, "failures and errors"};
  bool show_model = several_models(report);
  for (const AttemptResult& attempt : report.attempts) {
    if (attempt.outcome == Outcome::failed || attempt.outcome == Outcome::error) {
      section.blocks.push_back(failure_block(attempt, show_model));
    }
  }
  return section.blocks.size() > 1 ? section : Section{};
}

/// What decided a denial: its rule's id, else how the policy decided (unmatched, protected_path, ...).
std::string denial_key(const ToolCallRecord& call) {
  return call.rule_id.empty() ? "(" + call.decided_by + ")" : call.rule_id;
}

Section denials_section(const RunReport& report) {
  struct Denials {
    int count = 0;
    std::vector<std::string> tools;
    std::string first;
  };
  std::map<std::string, Denials> by_rule;
  for (const AttemptResult& attempt : report.attempts) {
    for (const ToolCallRecord& call : attempt.tool_calls) {
      if (call.decision != "denied") continue;
      Denials& denials = by_rule[denial_key(call)];
      if (denials.count++ == 0) denials.first = call.name + " " + call.input_summary;
      if (std::find(denials.tools.begin(), denials.tools.end(), call.name) == denials.tools.end()) {
        denials.tools.push_back(call.name);
      }
    }
  }
  if (by_rule.empty()) return {};
  Section section{
      {"### Denied tool calls by rule\n\n" + table_head({"Rule", "Denials", "Tools", "First denied call"}, "lrll")},
      "rules"};
  for (const auto& [rule, denials] : by_rule) {
    std::string tools;
    for (const std::string& tool : denials.tools) tools += (tools.empty() ? "" : ", ") + tool;
    section.blocks.push_back("| " + markdown_text(rule, 100) + " | " + std::to_string(denials.count) + " | " +
                             markdown_text(tools, 200) + " | " + markdown_text(denials.first, 200) + " |\n");
  }
  section.blocks.back() += "\n";
  return section;
}

/// A row per MCP server that failed to start or ended during an attempt, with why: its tools were
/// missing or failed, which explains much of what the agent did.
Section mcp_section(const RunReport& report) {
  Section section{{"### MCP servers unavailable\n\n" + table_head({"Attempt", "Server", "Status", "Why"}, "llll")},
                  "MCP servers"};
  bool show_model = several_models(report);
  for (const AttemptResult& attempt : report.attempts) {
    for (const McpServerRecord& server : attempt.mcp_servers) {
      if (server.status == "connected") continue;
      section.blocks.push_back("| " + markdown_text(attempt_label(attempt, show_model), 200) + " | " +
                               markdown_text(server.name, 100) + " | " + markdown_text(server.status, 20) + " | " +
                               markdown_text(server.error, 400) + " |\n");
    }
  }
  if (section.blocks.size() == 1) return {};
  section.blocks.back() += "\n";
  return section;
}

Section final_messages_section(const RunReport& report) {
  Section section{{"### Final messages\n\n"}, "final messages"};
  bool show_model = several_models(report);
  for (const AttemptResult& attempt : report.attempts) {
    if (attempt.final_message.empty()) continue;
    section.blocks.push_back("<details><summary>" + std::string(outcome_mark(attempt.outcome)) + " " +
                             markdown_html_text(attempt_label(attempt, show_model), 200) + "</summary>\n\n" +
                             markdown_quote(attempt.final_message, k_final_message_bytes) + "\n</details>\n\n");
  }
  return section.blocks.size() > 1 ? section : Section{};
}

}  // namespace

std::string summary_markdown(const RunReport& report, std::size_t max_bytes) {
  RunTotals totals = compute_totals(report.attempts);
  Budget budget(max_bytes);
  budget.add(totals_section(report, totals), max_bytes);
  budget.add(model_section(report), max_bytes / 10);
  budget.add(model_matrix_section(report), max_bytes / 10);
  budget.add(task_aggregates_section(report), max_bytes * 2 / 10);
  budget.add(repeats_section(report), max_bytes / 10);
  budget.add(failures_section(report), max_bytes * 4 / 10);
  budget.add(mcp_section(report), max_bytes / 20);
  budget.add(denials_section(report), max_bytes / 20);
  budget.add(final_messages_section(report), max_bytes);
  return budget.take();
}

}  // namespace agent_run
