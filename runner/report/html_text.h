#pragma once

#include <string>
#include <string_view>

namespace agent_run {

// The HTML report's one home for escaping. The page is written as well-formed XML too (every
// element closed, only XML's entities), so XML's rules (report/xml_text) are HTML's here: invalid
// UTF-8 repaired, control characters made visible, `& < > "` as entities.

/// `text` as element content.
std::string html_text(std::string_view text);

/// `text` as a double-quoted attribute value (without the quotes).
std::string html_attribute(std::string_view text);

/// `text` made into a CSS class or id fragment: ASCII letters and digits kept, anything else `-`.
std::string html_token(std::string_view text);

}  // namespace agent_run
