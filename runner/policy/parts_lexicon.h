#pragma once

#include <cstddef>
#include <string_view>

namespace agent_run::parts {

// The characters and words of the shell as the best-effort part parser (shell_parts) reads them.

bool is_blank(char c);
bool is_name_start(char c);
bool is_name_char(char c);
bool is_digit(char c);
/// True for a character that ends an unquoted word: a blank, a newline or an operator's.
bool ends_word(char c);
bool all_digits(std::string_view text);
/// Words that are shell syntax in the command position and run nothing themselves.
bool is_dropped_keyword(std::string_view word);
/// The length of `NAME=` or `NAME+=` at the start of a word as written, or 0.
std::size_t assignment_prefix(std::string_view raw);
/// True when a word names a shell that could read a here-document as its script.
bool names_a_shell(std::string_view word);

}  // namespace agent_run::parts
