#include "batch/console_progress.h"

#include "report/figures.h"
#include "report/report_folder.h"
#include "report/report_writers.h"
#include "report/run_totals.h"
#include "report/workflow_commands.h"

#include <algorithm>

namespace agent_run {

namespace {

std::string seconds(long long ms) {
  long long tenths = std::max(ms, 0LL) / 100;
  return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + "s";
}

std::string dollars(const Usage& usage) { return usage.cost_usd ? agent_run::dollars(*usage.cost_usd) : "$?"; }

std::string tokens(const Usage& usage) {
  return (usage.estimated ? "~" : "") + std::to_string(usage.total_tokens()) + " tokens";
}

/// `text` on one line: its line breaks as spaces.
std::string one_line(std::string text) {
  std::replace(text.begin(), text.end(), '\r', ' ');
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

std::string running_key(const std::string& task_id, const std::string& model, int n) {
  return task_id + "\n" + model + "\n" + std::to_string(n);
}

std::string last_line(const std::string& text) {
  std::string trimmed = text.substr(0, text.find_last_not_of("\n\r ") + 1);
  std::size_t newline = trimmed.rfind('\n');
  return newline == std::string::npos ? trimmed : trimmed.substr(newline + 1);
}

void add_command_lines(const char* kind, const std::vector<CheckRecord>& commands, std::vector<std::string>& lines) {
  for (const CheckRecord& command : commands) {
    if (command.passed) continue;
    std::string ending = command.timed_out ? "timed out" : "exited " + std::to_string(command.exit_code);
    std::string output = last_line(command.output_tail);
    lines.push_back(std::string("  ") + kind + " `" + command.run + "` " + ending +
                    (output.empty() ? "" : ": " + output));
  }
}

}  // namespace

std::string attempt_label(const AttemptPlan& plan) {
  std::string label = plan.task->id + " #" + std::to_string(plan.n);
  return plan.model_in_path == ModelInPath::shown ? label + " [" + plan.model + "]" : label;
}

std::vector<std::string> attempt_detail_lines(const AttemptResult& result) {
  std::vector<std::string> lines;
  if (result.outcome != Outcome::passed) {
    lines.push_back("  " + std::string(to_string(result.outcome)) + " (" + to_string(result.outcome_type) +
                    "): " + result.message);
  }
  add_command_lines("setup", result.setup, lines);
  add_command_lines("check", result.checks, lines);
  for (const ToolCallRecord& call : result.tool_calls) {
    if (call.decision != "denied") continue;
    lines.push_back("  denied (turn " + std::to_string(call.turn) + "): " + call.name + " " + call.input_summary +
                    (call.rule_id.empty() ? "" : " [rule " + call.rule_id + "]"));
  }
  lines.push_back("  " + std::to_string(result.turns) + " turns, " + std::to_string(result.tool_calls.size()) +
                  " tool calls (" + std::to_string(denied_calls(result)) + " denied), " + tokens(result.usage) + ", " +
                  dollars(result.usage));
  if (!result.patch_path.empty()) {
    lines.push_back("  patch: " + std::to_string(result.patch.files_changed) + " files, +" +
                    std::to_string(result.patch.lines_added) + " -" + std::to_string(result.patch.lines_removed) +
                    ": " + result.patch_path);
  }
  if (result.commit)
    lines.push_back("  committed to " + result.commit->branch + " (" + result.commit->sha.substr(0, 12) + ")");
  if (!result.transcript_path.empty()) lines.push_back("  transcript: " + result.transcript_path);
  return lines;
}

ConsoleProgress::ConsoleProgress(std::ostream& out, std::filesystem::path report_folder)
    : m_out(out), m_report_folder(std::move(report_folder)), m_clock(m_system_clock) {}

ConsoleProgress::ConsoleProgress(std::ostream& out, std::filesystem::path report_folder, ProgressOptions options,
                                 const Clock& clock)
    : m_out(out), m_report_folder(std::move(report_folder)), m_options(options), m_clock(clock) {}

void ConsoleProgress::attempt_started(const AttemptPlan& plan) {
  std::string label = attempt_label(plan);
  m_running[running_key(plan.task->id, plan.model, plan.n)] = Running{label, AttemptProgress{}, m_clock.now()};
  if (m_options.verbosity == Verbosity::quiet) return;
  if (m_options.style == ProgressStyle::live) return draw_live_lines();
  if (m_options.verbosity == Verbosity::verbose) {
    m_out << log_line("START " + label + "  " + plan.model) << '\n' << std::flush;
  }
}

void ConsoleProgress::attempt_progress(const AttemptPlan& plan, const AttemptProgress& progress) {
  auto running = m_running.find(running_key(plan.task->id, plan.model, plan.n));
  if (running == m_running.end()) return;
  bool new_turn = progress.turn != running->second.progress.turn;
  running->second.progress = progress;
  if (m_options.verbosity == Verbosity::quiet) return;
  if (m_options.style == ProgressStyle::live) return draw_live_lines();
  if (m_options.verbosity == Verbosity::verbose && new_turn)
    m_out << log_line(status_line(running->second)) << '\n' << std::flush;
}

void ConsoleProgress::attempt_finished(const AttemptResult& result) {
  m_running.erase(running_key(result.task_id, result.model, result.n));
  if (m_options.verbosity == Verbosity::quiet) return;
  clear_live_lines();
  if (m_options.style == ProgressStyle::github) {
    m_out << "::group::" << log_line(attempt_summary_line(result)) << '\n';
    print_details(result);
    m_out << "::endgroup::\n";
  } else {
    m_out << log_line(attempt_summary_line(result)) << '\n';
    if (m_options.verbosity == Verbosity::verbose) print_details(result);
  }
  for (const McpServerRecord& server : result.mcp_servers) {
    if (server.status != "connected") m_out << "  warning: " << one_line(server.error) << '\n';
  }
  if (m_options.style == ProgressStyle::live) draw_live_lines();
  m_out << std::flush;
}

void ConsoleProgress::time_passed() {
  if (m_options.style == ProgressStyle::live && m_options.verbosity != Verbosity::quiet && !m_running.empty()) {
    draw_live_lines();
  }
}

void ConsoleProgress::run_finished(const RunReport& report) {
  clear_live_lines();
  m_out << run_summary_lines(report);
  m_out << ReportFolder::files_line(m_report_folder) << std::flush;
}

std::string ConsoleProgress::status_line(const Running& running) const {
  const AttemptProgress& progress = running.progress;
  std::string line = "  ... " + running.label + "  " + (progress.phase.empty() ? "starting" : progress.phase);
  if (progress.turn > 0) line += "  turn " + std::to_string(progress.turn);
  line += "  " + tokens(progress.usage) + "  " + dollars(progress.usage) + "  " +
          seconds(elapsed_ms(running.started, m_clock.now()));
  if (!progress.activity.empty()) line += "  " + progress.activity;
  return line;
}

void ConsoleProgress::clear_live_lines() {
  for (; m_drawn_lines > 0; --m_drawn_lines) m_out << "\x1b[1A\x1b[2K";
}

void ConsoleProgress::draw_live_lines() {
  clear_live_lines();
  std::size_t width = static_cast<std::size_t>(std::max(m_options.width, 20) - 1);
  for (const auto& [folder, running] : m_running) {
    std::string line = log_line(status_line(running));
    if (line.size() > width) line.resize(width);
    m_out << line << '\n';
    ++m_drawn_lines;
  }
  m_out << std::flush;
}

void ConsoleProgress::print_details(const AttemptResult& result) {
  // The details quote what the agent, a check or a tool wrote: never a workflow command in the log.
  for (const std::string& line : attempt_detail_lines(result)) m_out << log_line(line) << '\n';
}

}  // namespace agent_run
