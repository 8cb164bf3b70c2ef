// libFuzzer target for the XML escapers the JUnit report is written with: whatever the bytes, the
// escaped text is valid UTF-8 holding only XML 1.0 characters, no markup (`<`, `&` outside an
// entity, `]]>`), and, for attributes, no quote, tab, newline or carriage return left raw.
#include "fuzz_support.h"
#include "report/xml_text.h"

#include <string>

using namespace agent_run;
using agent_run::fuzz::require;

namespace {

/// Decodes one UTF-8 code point at `at` (advancing it); -1 for an invalid sequence.
long next_code_point(std::string_view text, std::size_t& at) {
  auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  unsigned char lead = byte(at);
  int length = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3 : (lead >> 3) == 0x1E ? 4 : 0;
  if (length == 0 || at + length > text.size()) return -1;
  long code = length == 1 ? lead : lead & (0x7F >> length);
  for (int i = 1; i < length; ++i) {
    if ((byte(at + i) >> 6) != 0x2) return -1;
    code = (code << 6) | (byte(at + i) & 0x3F);
  }
  const long smallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < smallest[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return -1;
  at += length;
  return code;
}

bool is_xml_char(long c) {
  return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) ||
         (c >= 0x10000 && c <= 0x10FFFF);
}

/// Every `&` starts one of the entities or character references the escapers write.
bool ampersands_are_entities(std::string_view text) {
  for (std::size_t at = text.find('&'); at != std::string_view::npos; at = text.find('&', at + 1)) {
    std::string_view rest = text.substr(at);
    std::size_t end = rest.find(';');
    if (end == std::string_view::npos || end < 3) return false;
    std::string_view name = rest.substr(1, end - 1);
    bool named = name == "amp" || name == "lt" || name == "gt" || name == "quot" || name == "apos";
    bool numeric = name.size() >= 2 && name[0] == '#' && name.find_first_not_of("0123456789xXabcdefABCDEF", 1) ==
                                                              std::string_view::npos;
    if (!named && !numeric) return false;
  }
  return true;
}

void check_escaped(std::string_view escaped, bool attribute) {
  for (std::size_t at = 0; at < escaped.size();) {
    long c = next_code_point(escaped, at);
    require(c >= 0 && is_xml_char(c));
    require(c != '<' && c != '>' && c != '\r');
    if (attribute) require(c != '"' && c != '\t' && c != '\n');
  }
  require(ampersands_are_entities(escaped));
  require(escaped.find("]]>") == std::string_view::npos);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fuzz::as_text(data, size);
  check_escaped(xml_escape_text(text), false);
  check_escaped(xml_escape_attribute(text), true);
  const std::string printable = xml_printable(text);
  for (std::size_t at = 0; at < printable.size();) {
    long c = next_code_point(printable, at);
    require(c >= 0 && is_xml_char(c));
  }
  return 0;
}
