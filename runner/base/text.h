#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agent_run {

/// Returns `text` with every invalid UTF-8 sequence replaced by U+FFFD.
std::string repair_utf8(std::string_view text);

/// Appends the UTF-8 encoding of `code_point` to `out`.
void append_utf8(std::string& out, unsigned code_point);

/// `text` without leading and trailing spaces, tabs and line breaks.
std::string_view trim(std::string_view text);

/// Splits on `separator`, keeping empty pieces.
std::vector<std::string> split(std::string_view text, char separator);

/// Joins `pieces` with `separator` between them.
std::string join(const std::vector<std::string>& pieces, std::string_view separator);

/// `text` with ASCII letters in lower case (other bytes as they are).
std::string to_lower(std::string_view text);

/// True when `a` and `b` are equal but for the case of ASCII letters.
bool equal_ignoring_case(std::string_view a, std::string_view b);

/// Levenshtein distance, for "did you mean" suggestions.
std::size_t edit_distance(std::string_view a, std::string_view b);

/// The candidate closest to `word` when it is close enough to be a likely misspelling.
std::optional<std::string> closest_match(std::string_view word, const std::vector<std::string>& candidates);

/// Keeps the first `head` and last `tail` bytes of `text` (cut on UTF-8 boundaries) with a marker
/// saying how many bytes were left out between them.
std::string cap_head_tail(std::string_view text, std::size_t head, std::size_t tail);

/// The last `max_bytes` bytes of `text`, starting on a UTF-8 boundary.
std::string tail_of(std::string_view text, std::size_t max_bytes);

/// True for an id (of a task or a policy rule): letters, digits, '.', '_' and '-', at least one.
bool is_identifier(std::string_view text);

/// Number of lines, counting a last line without a newline.
std::size_t count_lines(std::string_view text);

/// `text` on one line, for a message that quotes outside input: newline, carriage return and tab
/// as `\n`, `\r` and `\t`, other control characters and DEL as `\xHH`, invalid UTF-8 repaired.
std::string one_line(std::string_view text);

}  // namespace agent_run
