#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agent_run {

/// Commands longer than this are never understood (peers saw checks give up on very long input).
inline constexpr std::size_t k_max_shell_command_bytes = 10000;

/// One redirection of a simple command, after quote removal: `>`, `>>` or `<` with the file
/// descriptor it applies to, or `>&` duplicating one descriptor onto another (`2>&1`).
struct ShellRedirect {
  int fd = 1;
  std::string op;      // ">", ">>", "<" or ">&"
  std::string target;  // a file name, or the descriptor's digits for ">&"

  /// How a rule's `redirects` list names it: the file name, or `&N` for a duplication.
  std::string rule_target() const { return op == ">&" ? "&" + target : target; }
  friend bool operator==(const ShellRedirect&, const ShellRedirect&) = default;
};

/// One simple command: its words after quote removal and escape decoding, and its redirections.
struct SimpleCommand {
  std::vector<std::string> argv;
  std::vector<ShellRedirect> redirects;
  std::string text;  // the command as written, for messages
  // Only the best-effort part parser (shell_parts) fills these; parse_shell refuses what needs them.
  std::vector<std::string> assignments;  // leading NAME=value words, as written after quote removal
  std::string folder;                    // where an earlier `cd` of the same line moved to, when it named one
};

/// A command line split into the simple commands joined by `&&`, `||`, `;`, `|` and newlines,
/// or the first thing in it that is not understood.
struct ShellParse {
  std::vector<SimpleCommand> commands;
  std::string problem;         // empty when every byte was understood
  std::size_t problem_at = 0;  // byte offset of the problem in the input

  bool understood() const { return problem.empty(); }
};

/// What makes a command's text unreadable whatever parses it, and where.
struct TextProblem {
  std::size_t at = 0;
  std::string message;
};

/// The first byte that no check should read past: input over `max_bytes`, invalid UTF-8, control
/// characters other than tab and newline, and invisible or bidirectional Unicode (which can hide
/// part of a command from whoever reads it); nullopt when there is none.
std::optional<TextProblem> shell_text_problem(std::string_view text, std::size_t max_bytes = k_max_shell_command_bytes);

/// Parses the small part of the POSIX shell language that can be checked word by word: plain
/// words, '...' and "..." quoting, backslash escapes and line continuations, the operators
/// `&& || ; |`, and the redirections `>`, `>>`, `<` and `N>&M`. Everything else fails closed with
/// a problem: `$` in any form, backticks, globs, braces, parentheses, `&`, here-documents, leading
/// NAME=value assignments, reserved words, builtins that change the shell for later commands,
/// `cd` followed by more commands, control characters, invisible or bidirectional Unicode,
/// non-ASCII outside quotes, and input over `max_bytes`. Words mean the same to dash and bash.
ShellParse parse_shell(std::string_view text, std::size_t max_bytes = k_max_shell_command_bytes);

/// Quotes `word` so that parse_shell (and sh) read it back as exactly that one word.
std::string quote_shell_word(std::string_view word);

}  // namespace agent_run
