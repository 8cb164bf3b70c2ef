#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace agent_run {

// The Markdown summary's one home for escaping: whatever a task, a model or a command wrote reaches
// GitHub-flavoured Markdown only through these, with invalid UTF-8 repaired and control characters
// made visible (`#x07`).

/// One line of plain text inside Markdown (a paragraph or a table cell): line breaks become spaces,
/// every character Markdown or GitHub gives a meaning (`\ * _ [ ] < > | # ~ & @ ! ( )` and the
/// backtick) is backslash-escaped, and text longer than `max_bytes` is cut on a UTF-8 boundary with `…`.
std::string markdown_text(std::string_view text, std::size_t max_bytes = 300);

/// Several lines as a block quote (`> ` before each), each line escaped as markdown_text; at most
/// `max_bytes` of the text, cut with a note.
std::string markdown_quote(std::string_view text, std::size_t max_bytes);

/// A fenced code block (its fence longer than any run of backticks inside) holding the last
/// `max_bytes` of `text`, with a note when the head was cut; `language` may be empty.
std::string markdown_code_block(std::string_view text, std::string_view language, std::size_t max_bytes);

/// Text inside raw HTML in the Markdown (a <summary>, which Markdown leaves alone): one line, HTML
/// entities for `& < > "`, cut like markdown_text.
std::string markdown_html_text(std::string_view text, std::size_t max_bytes = 300);

}  // namespace agent_run
