#pragma once

#include "policy/shell_parser.h"

#include <string_view>
#include <vector>

namespace agent_run {

/// The simple commands a shell line may run, found by the best-effort part parser, and whether it
/// saw all of them.
struct ShellParts {
  std::vector<SimpleCommand> commands;
  bool complete = true;  // false: nesting or size limits stopped the parser before the end
};

/// Finds every simple command in `text` that a shell could run, for deny rules to look at when the
/// sandbox confines what they cannot see. Never refuses: it splits at `; & && || | |& ( ) { }` and
/// newlines; drops reserved words (`if then else elif fi for in do done while until case esac
/// select function ! time coproc`, `for NAME in WORDS`, `case` patterns); removes quotes as the
/// shell does (`$'...'` decoded); keeps `$VAR`, `${...}` and globs as written in the words; looks
/// inside `$(...)`, backticks, `<(...)`, `>(...)`, `${...}`, subshells, function bodies and
/// `eval`'s words; moves leading NAME=value words to `assignments`; keeps redirection targets; reads
/// here-document and here-string bodies as data (their substitutions still run), or as a script
/// when a shell reads them (the command holding them, or a later one in its pipeline, names a
/// shell). `sh -c` scripts are left to command_views. A word with a substitution or a glob in it
/// cannot be checked as a path: the kernel covers what such a word names.
ShellParts shell_parts(std::string_view text);

}  // namespace agent_run
