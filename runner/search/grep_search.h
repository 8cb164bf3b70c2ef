#pragma once

#include "base/expected.h"
#include "search/file_walk.h"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace agent_run {

/// What the grep tool prints: matching lines, the names of matching files, or a count per file.
enum class GrepOutput { content, files_with_matches, count };

/// One grep call, checked and confined: what both search backends are asked.
struct GrepRequest {
  std::string pattern;             // as the model wrote it (see GrepPatterns for what each engine gets)
  std::string path = ".";          // workspace-relative file or folder
  std::vector<std::string> globs;  // -g filters (gitignore syntax, `!` excludes)
  bool case_insensitive = false;
  int before = 0;  // context lines before each match
  int after = 0;   // context lines after each match
  GrepOutput output = GrepOutput::content;
  std::size_t max_results = 100;  // matching lines (content) or files (the other outputs)
};

/// The pattern as each engine receives it. Perl classes are made ASCII on both sides (`\w` becomes
/// `[[:word:]]`, `\d` `[[:digit:]]`, `\s` `[[:space:]]`, `\b` stays ASCII in RE2 and becomes `(?-u:\b)` for
/// ripgrep), so the two engines agree on every line.
struct GrepPatterns {
  std::string for_ripgrep;
  std::string for_re2;
};

/// Rewrites and validates `pattern` (with RE2, whichever engine runs, so both accept the same syntax and
/// report the same errors). A pattern with a line break is refused: grep matches one line at a time.
Expected<GrepPatterns> prepare_patterns(const std::string& pattern, bool case_insensitive);

/// One line of a result: a match or a context line.
struct GrepLine {
  std::int64_t number = 0;  // 1-based
  bool is_match = false;
  std::string text;  // without its "\n" (a "\r" before it is kept, as ripgrep keeps it)
};

/// What one file contributed. `lines` is empty for files_with_matches and count.
struct GrepFile {
  std::string path;  // workspace-relative
  std::vector<GrepLine> lines;
  std::size_t match_count = 0;  // matching lines (for files_with_matches: 1)
};

/// Receives the files with matches in `rg --sort path` order; returns stop once it has enough.
using GrepSink = std::function<WalkStep(GrepFile&&)>;

/// Where and how long a search may run.
struct SearchScope {
  std::filesystem::path workspace;
  std::chrono::steady_clock::time_point deadline;
  std::vector<std::string> environment;  // for the ripgrep child (PATH among them)
  const HiddenPaths* hidden = nullptr;   // what the policy hides: never handed on (the built-in search never reads it)
};

/// Searches with ripgrep (`rg` at `program`), as `rg --json` (or -l / -c) with the flags that make it
/// walk like walk_files; a file holding a NUL byte is left out, as the built-in search leaves it out,
/// and so is a file `scope.hidden` names (ripgrep read it; nothing of it is handed on).
Expected<void> search_with_ripgrep(const std::filesystem::path& program, const SearchScope& scope,
                                   const GrepRequest& request, const GrepPatterns& patterns, const GrepSink& sink);

/// The built-in search: walk_files, each file read a chunk at a time (ChunkedSearch) and searched with RE2 or
/// a literal finder, on every core; what `scope.hidden` names is never opened (and a file that turns out to be
/// one, once open, is dropped).
Expected<void> search_builtin(const SearchScope& scope, const GrepRequest& request, const GrepPatterns& patterns,
                              const GrepSink& sink);

/// True when the file holds a NUL byte anywhere: such files are binary and never searched.
bool is_binary_content(std::string_view content);

}  // namespace agent_run
