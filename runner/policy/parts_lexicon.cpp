#include "policy/parts_lexicon.h"

#include <algorithm>
#include <array>

namespace agent_run::parts {

bool is_blank(char c) { return c == ' ' || c == '\t'; }
bool is_name_start(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool is_name_char(char c) { return is_name_start(c) || (c >= '0' && c <= '9'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool ends_word(char c) {
  return is_blank(c) || c == '\n' || c == ';' || c == '&' || c == '|' || c == '<' || c == '>' || c == '(' || c == ')';
}

bool all_digits(std::string_view text) { return !text.empty() && std::all_of(text.begin(), text.end(), is_digit); }

/// Words that are shell syntax in the command position and run nothing themselves.
bool is_dropped_keyword(std::string_view word) {
  static constexpr std::array<std::string_view, 14> k_words = {"!",  "{",  "}",    "if",    "then",  "else", "elif",
                                                               "fi", "do", "done", "while", "until", "esac", "coproc"};
  return std::find(k_words.begin(), k_words.end(), word) != k_words.end();
}

/// The length of `NAME=` or `NAME+=` at the start of a word as written, or 0.
std::size_t assignment_prefix(std::string_view raw) {
  if (raw.empty() || !is_name_start(raw[0])) return 0;
  std::size_t i = 1;
  while (i < raw.size() && is_name_char(raw[i])) ++i;
  if (i < raw.size() && raw[i] == '=') return i + 1;
  if (i + 1 < raw.size() && raw[i] == '+' && raw[i + 1] == '=') return i + 2;
  return 0;
}

/// True when a word names a shell that could read a here-document as its script.
bool names_a_shell(std::string_view word) {
  std::size_t slash = word.rfind('/');
  std::string_view name = slash == std::string_view::npos ? word : word.substr(slash + 1);
  static constexpr std::array<std::string_view, 8> k_shells = {"sh",  "bash", "dash", "zsh",
                                                               "ksh", "ash",  "mksh", "busybox"};
  return std::find(k_shells.begin(), k_shells.end(), name) != k_shells.end();
}

}  // namespace agent_run::parts
