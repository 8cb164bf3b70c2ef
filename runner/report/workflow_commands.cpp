#include "report/workflow_commands.h"

#include "report/figures.h"
#include "report/run_totals.h"
#include "report/xml_text.h"

#include <charconv>

namespace agent_run {

namespace {

std::string escape_for_command(std::string_view text, bool property) {
  std::string printable = xml_printable(text);
  std::string out;
  out.reserve(printable.size());
  for (char c : printable) {
    switch (c) {
      case '%': out += "%25"; break;
      case '\r': out += "%0D"; break;
      case '\n': out += "%0A"; break;
      case ':': out += property ? "%3A" : ":"; break;
      case ',': out += property ? "%2C" : ","; break;
      default: out += c; break;
    }
  }
  return out;
}

}  // namespace

std::string command_data(std::string_view text) { return escape_for_command(text, false); }

std::string command_property(std::string_view text) { return escape_for_command(text, true); }

std::string step_outputs(const RunReport& report) {
  RunTotals totals = compute_totals(report.attempts);
  std::string cost;
  if (totals.usage.cost_usd) {
    char buffer[32];
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, *totals.usage.cost_usd, std::chars_format::fixed, 4);
    if (ec == std::errc()) cost.assign(buffer, end);
  }
  return "attempts=" + std::to_string(totals.attempts) + "\npassed=" + std::to_string(totals.passed) +
         "\nfailed=" + std::to_string(totals.failed) + "\nerrors=" + std::to_string(totals.error) +
         "\nskipped=" + std::to_string(totals.skipped) + "\npass-rate=" + decimal_fraction(pass_rate(totals)) +
         "\ntokens=" + std::to_string(totals.usage.total_tokens()) + "\ncost-usd=" + cost + "\n";
}

std::string annotation_command(const Annotation& annotation) {
  std::string properties;
  auto add = [&](std::string_view name, const std::string& value) {
    if (value.empty()) return;
    properties += (properties.empty() ? " " : ",") + std::string(name) + "=" + command_property(value);
  };
  bool on_a_line = !annotation.file.empty() && annotation.line > 0;  // a line means nothing without its file
  add("file", annotation.file);
  if (on_a_line) add("line", std::to_string(annotation.line));
  if (on_a_line && annotation.column > 0) add("col", std::to_string(annotation.column));
  add("title", annotation.title);
  return "::" + annotation.level + properties + "::" + command_data(annotation.message);
}

}  // namespace agent_run
