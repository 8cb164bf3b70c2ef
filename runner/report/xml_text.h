#pragma once

#include <string>
#include <string_view>

namespace agent_run {

/// `text` made safe for any XML 1.0 document: invalid UTF-8 repaired to U+FFFD, and every code
/// point outside XML 1.0 `Char` (control characters other than tab, newline and carriage return,
/// U+FFFE, U+FFFF) plus DEL and the C1 controls replaced by visible text such as `#x07`.
std::string xml_printable(std::string_view text);

/// `text` as element content: xml_printable, then `& < > "` and carriage return as entities, so
/// `]]>` can never appear and no CDATA is needed.
std::string xml_escape_text(std::string_view text);

/// `text` as an attribute value (without the quotes): like xml_escape_text, plus tab and newline
/// as character references so a parser's attribute normalisation keeps them.
std::string xml_escape_attribute(std::string_view text);

}  // namespace agent_run
