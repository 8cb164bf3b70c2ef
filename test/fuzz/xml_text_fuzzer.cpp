// libFuzzer target for the XML escapers the JUnit report is written with: whatever the bytes, the
// escaped text is valid UTF-8 holding only XML 1.0 characters, no markup (`<`, `&` outside an
// entity, `]]>`), and, for attributes, no quote, tab, newline or carriage return left raw.
#include "fuzz_support.h"
#include "report/xml_text.h"

#include <string>

using namespace agent_run;
using agent_run::fuzz::require;

namespace {

void check_escaped(std::string_view escaped, bool attribute) {
  for (std::size_t at = 0; at < escaped.size();) {
    long c = fuzz::next_code_point(escaped, at);
    require(c >= 0 && fuzz::is_xml_char(c));
    require(c != '<' && c != '>' && c != '\r');
    if (attribute) require(c != '"' && c != '\t' && c != '\n');
  }
  require(fuzz::ampersands_are_entities(escaped));
  require(escaped.find("]]>") == std::string_view::npos);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fuzz::as_text(data, size);
  check_escaped(xml_escape_text(text), false);
  check_escaped(xml_escape_attribute(text), true);
  const std::string printable = xml_printable(text);
  for (std::size_t at = 0; at < printable.size();) {
    long c = fuzz::next_code_point(printable, at);
    require(c >= 0 && fuzz::is_xml_char(c));
  }
  return 0;
}
