#pragma once

#include "base/expected.h"

#include <filesystem>
#include <string>
#include <vector>

namespace agent_run {

/// One entry of a compile_commands.json: the command that compiles one source file.
struct CompileEntry {
  std::filesystem::path directory;     // absolute: where the command runs
  std::filesystem::path file;          // the source file, absolute
  std::vector<std::string> arguments;  // argv ("arguments", or "command" split as sh would), argv[0] the compiler
};

/// The entries of the compile_commands.json at `database`; fails, naming it, when it cannot be read
/// or holds none.
Expected<std::vector<CompileEntry>> read_compile_database(const std::filesystem::path& database);

/// Where a tree's copy sits: `from` is the folder the database's paths point into (the workspace),
/// `written` where agent-run wrote the copy and `seen` where the compiler sees it (in a sandbox's /tmp).
struct TreeCopy {
  std::filesystem::path from;
  std::filesystem::path written;
  std::filesystem::path seen;
};

/// One entry as a syntax-only check: its folder (as the compiler sees it, and where agent-run finds it) and argv.
struct SyntaxCheck {
  std::filesystem::path directory;
  std::filesystem::path written_directory;
  std::vector<std::string> argv;
};

/// `entry` as a syntax-only run (`-fsyntax-only`, plain diagnostics, every error; its `-o`, `-c` and
/// dependency-file options dropped) over the copy `tree`: each path under `tree.from` (the folder,
/// the source file, `-I`, `-isystem`, `-iquote`, `-idirafter`, `-include`, `-imacros`, relative ones
/// taken from the entry's folder) points at the copy when the copy holds it, and stays as it is when
/// it does not (a build folder, generated headers: what git ignores is not in a baseline tree), made
/// absolute when it was relative.
SyntaxCheck syntax_check_of(const CompileEntry& entry, const TreeCopy& tree);

/// `text` split into words as sh would (spaces, single and double quotes, backslashes).
std::vector<std::string> shell_words(const std::string& text);

}  // namespace agent_run
