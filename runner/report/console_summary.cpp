#include "report/figures.h"
#include "report/report_writers.h"
#include "report/run_totals.h"
#include "report/xml_text.h"

#include <algorithm>

namespace agent_run {

namespace {

const char* outcome_label(Outcome outcome) {
  switch (outcome) {
    case Outcome::passed: return "PASS ";
    case Outcome::failed: return "FAIL ";
    case Outcome::error: return "ERROR";
    case Outcome::skipped: return "SKIP ";
  }
  return "ERROR";
}

/// The first line of `text`, with control characters made visible, fit for one console line.
std::string first_line(std::string_view text) {
  std::string line = xml_printable(text.substr(0, text.find('\n')));
  for (char& c : line) {
    if (c == '\t' || c == '\r') c = ' ';
  }
  return line;
}

std::string plural(long long count, std::string_view one, std::string_view many) {
  return std::to_string(count) + " " + std::string(count == 1 ? one : many);
}

std::string cost_words(const Usage& usage) {
  return usage.cost_usd ? "cost " + dollars(usage.cost_usd) : "cost unknown";
}

std::string usage_line(const Usage& usage) {
  std::string line = "usage: ";
  line += usage.estimated ? "~" + plural(usage.total_tokens(), "token", "tokens") + " (estimated)"
                          : plural(usage.total_tokens(), "token", "tokens");
  line += ": " + std::to_string(usage.input_tokens) + " input, " + std::to_string(usage.output_tokens) + " output, " +
          std::to_string(usage.cache_read_input_tokens) + " cache read, " +
          std::to_string(usage.cache_creation_input_tokens) + " cache write; " + cost_words(usage);
  return line;
}

}  // namespace

std::string attempt_summary_line(const AttemptResult& attempt) {
  std::string line = std::string(outcome_label(attempt.outcome)) + " " + attempt.task_id + " #" +
                     std::to_string(attempt.n) + "  " + attempt.model + "  " + plural(attempt.turns, "turn", "turns") +
                     "  " + short_duration(attempt.durations.total_ms);
  if (attempt.outcome == Outcome::passed) return line;
  std::string message = first_line(attempt.message);
  std::string type = to_string(attempt.outcome_type);
  return line + "  " + (message.empty() ? type : type + ": " + message);
}

std::string run_summary_lines(const RunReport& report) {
  RunTotals totals = compute_totals(report.attempts);
  std::string out = plural(totals.attempts, "attempt", "attempts") + ": " + std::to_string(totals.passed) +
                    " passed, " + std::to_string(totals.failed) + " failed, " +
                    plural(totals.error, "error", "errors") + ", " + std::to_string(totals.skipped) + " skipped\n";
  out += usage_line(totals.usage) + "\n";
  out += "tool calls: " + std::to_string(totals.tool_calls) + ", " + std::to_string(totals.denied) + " denied\n";
  if (report.interrupted) {
    out +=
        "interrupted: attempts that were running are reported as interrupted; agent-run --resume runs them "
        "and those not started\n";
  }
  return out;
}

}  // namespace agent_run
