#pragma once

#include <string>
#include <string_view>

namespace agent_run {

/// An HTML page as readable text for the model: the title first, scripts, styles and other
/// invisible parts dropped, block elements on their own lines, headings marked with `#`, list items
/// with `- `, links followed by their absolute http(s) target in parentheses, `<pre>` kept as it is,
/// character references decoded, runs of spaces and blank lines collapsed.
std::string html_to_text(std::string_view html);

/// `text` with HTML character references (`&amp;`, `&#39;`, `&#x27;`, `&nbsp;`, ...) decoded.
std::string decode_html_entities(std::string_view text);

}  // namespace agent_run
