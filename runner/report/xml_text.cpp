#include "report/xml_text.h"

#include "base/text.h"

#include <cstdio>

namespace agent_run {

namespace {

/// Decodes the UTF-8 sequence at `i` of already repaired text and advances `i` past it.
unsigned next_code_point(std::string_view text, std::size_t& i) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  unsigned lead = byte(i);
  std::size_t length = lead < 0x80 ? 1 : (lead & 0xE0) == 0xC0 ? 2 : (lead & 0xF0) == 0xE0 ? 3 : 4;
  unsigned code = length == 1 ? lead : length == 2 ? lead & 0x1F : length == 3 ? lead & 0x0F : lead & 0x07;
  for (std::size_t k = 1; k < length; ++k) code = (code << 6) | (byte(i + k) & 0x3F);
  i += length;
  return code;
}

/// Whether `code` is written as visible `#xNN` text instead of itself.
bool needs_visible_form(unsigned code) {
  bool allowed_control = code == 0x09 || code == 0x0A || code == 0x0D;
  return (code < 0x20 && !allowed_control) || (code >= 0x7F && code <= 0x9F) || code == 0xFFFE || code == 0xFFFF;
}

void append_visible_form(std::string& out, unsigned code) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, code <= 0xFF ? "#x%02X" : "#x%04X", code);
  out += buffer;
}

/// Appends `c` escaped; `in_attribute` also escapes tab and newline.
void append_escaped(std::string& out, char c, bool in_attribute) {
  switch (c) {
    case '&': out += "&amp;"; return;
    case '<': out += "&lt;"; return;
    case '>': out += "&gt;"; return;
    case '"': out += "&quot;"; return;
    case '\r': out += "&#13;"; return;
    case '\n': out += in_attribute ? "&#10;" : "\n"; return;
    case '\t': out += in_attribute ? "&#9;" : "\t"; return;
    default: out += c; return;
  }
}

std::string escape(std::string_view text, bool in_attribute) {
  std::string printable = xml_printable(text);
  std::string out;
  out.reserve(printable.size() + printable.size() / 8);
  for (char c : printable) append_escaped(out, c, in_attribute);
  return out;
}

}  // namespace

std::string xml_printable(std::string_view text) {
  std::string repaired = repair_utf8(text);
  std::string out;
  out.reserve(repaired.size());
  for (std::size_t i = 0; i < repaired.size();) {
    std::size_t start = i;
    unsigned code = next_code_point(repaired, i);
    if (needs_visible_form(code)) {
      append_visible_form(out, code);
    } else {
      out.append(repaired, start, i - start);
    }
  }
  return out;
}

std::string xml_escape_text(std::string_view text) { return escape(text, false); }

std::string xml_escape_attribute(std::string_view text) { return escape(text, true); }

}  // namespace agent_run
