#include "report/markdown_text.h"

#include "base/text.h"
#include "report/xml_text.h"

#include <algorithm>

namespace agent_run {

namespace {

constexpr std::string_view k_escaped = "\\`*_[]<>|#~&@!()";

bool is_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

/// The first `max_bytes` of `text` on a UTF-8 boundary, with `…` when cut.
std::string head_of(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  std::size_t end = max_bytes;
  while (end > 0 && is_continuation(text[end])) --end;
  return std::string(text.substr(0, end)) + "\xE2\x80\xA6";
}

/// Printable text (xml_printable: repaired UTF-8, visible control characters), CRLF as LF.
std::string printable(std::string_view text) {
  std::string out = xml_printable(text);
  out.erase(std::remove(out.begin(), out.end(), '\r'), out.end());
  return out;
}

std::string one_line(std::string_view text, std::size_t max_bytes) {
  std::string line = printable(text);
  std::replace(line.begin(), line.end(), '\n', ' ');
  std::replace(line.begin(), line.end(), '\t', ' ');
  return head_of(trim(line), max_bytes);
}

std::string escape_line(std::string_view line) {
  std::string out;
  out.reserve(line.size() + line.size() / 4);
  for (char c : line) {
    if (k_escaped.find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

std::size_t longest_backtick_run(std::string_view text) {
  std::size_t longest = 0;
  std::size_t run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return longest;
}

}  // namespace

std::string markdown_text(std::string_view text, std::size_t max_bytes) {
  return escape_line(one_line(text, max_bytes));
}

std::string markdown_quote(std::string_view text, std::size_t max_bytes) {
  std::string kept = printable(text);
  bool cut = kept.size() > max_bytes;
  kept = head_of(kept, max_bytes);
  std::string out;
  for (const std::string& line : split(trim(kept), '\n')) out += line.empty() ? ">\n" : "> " + escape_line(line) + "\n";
  if (cut) out += ">\n> *(cut: the whole text is in report.json)*\n";
  return out;
}

std::string markdown_code_block(std::string_view text, std::string_view language, std::size_t max_bytes) {
  std::string body = printable(text);
  bool cut = body.size() > max_bytes;
  body = tail_of(body, max_bytes);
  if (!body.empty() && body.back() != '\n') body += '\n';
  std::string fence(std::max<std::size_t>(3, longest_backtick_run(body) + 1), '`');
  std::string out = fence + std::string(language) + "\n";
  if (cut) out += "[... the head was cut: the whole text is in report.json]\n";
  return out + body + fence + "\n";
}

std::string markdown_html_text(std::string_view text, std::size_t max_bytes) {
  return xml_escape_text(one_line(text, max_bytes));
}

}  // namespace agent_run
