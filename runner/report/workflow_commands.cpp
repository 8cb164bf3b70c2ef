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

/// How many bytes of whitespace start `text`, as the runner's TrimStart sees it (and a little more:
/// every ASCII control character, and the Unicode spaces and invisible separators in UTF-8).
std::size_t leading_space(std::string_view text) {
  static const std::string_view k_wide_spaces[] = {
      "\xC2\x85", "\xC2\xA0", "\xE1\x9A\x80", "\xE1\xA0\x8E", "\xE2\x80\xA8", "\xE2\x80\xA9", "\xE2\x80\xAF",
      "\xE2\x81\x9F", "\xE2\x81\xA0", "\xE3\x80\x80", "\xEF\xBB\xBF"};
  std::size_t at = 0;
  while (at < text.size()) {
    const auto c = static_cast<unsigned char>(text[at]);
    if (c <= 0x20 || c == 0x7F) {
      ++at;
      continue;
    }
    std::string_view rest = text.substr(at);
    if (rest.size() >= 3 && rest.substr(0, 2) == "\xE2\x80" && static_cast<unsigned char>(rest[2]) <= 0x8F) {
      at += 3;  // U+2000 to U+200F: the typographic spaces and the zero-width ones
      continue;
    }
    bool wide = false;
    for (std::string_view space : k_wide_spaces) {
      if (rest.starts_with(space)) {
        at += space.size();
        wide = true;
        break;
      }
    }
    if (!wide) break;
  }
  return at;
}

void replace_every(std::string& text, std::string_view from, std::string_view to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

}  // namespace

std::string log_line(std::string_view text) {
  std::string line;
  line.reserve(text.size());
  for (char c : text) {
    if (c == '\r') line += "\\r";
    else if (c == '\n') line += "\\n";
    else line += c;
  }
  replace_every(line, "##[", "## [");
  const std::size_t start = leading_space(line);
  if (line.compare(start, 2, "::") == 0) line.insert(start + 1, " ");
  return line;
}

std::string log_lines(std::string_view text) {
  std::string out;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    out += log_line(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) break;
    out += '\n';
    start = end + 1;
  }
  return out;
}

std::string json_log_line(std::string json) {
  replace_every(json, "##[", "##\\u005b");
  return json;
}

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

std::string multiline_output(std::string_view name, std::string_view value, std::string_view delimiter) {
  std::string text = std::string(name) + "<<" + std::string(delimiter) + "\n" + std::string(value);
  if (!value.empty() && value.back() != '\n') text += "\n";
  return text + std::string(delimiter) + "\n";
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
