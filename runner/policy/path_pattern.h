#pragma once

#include "base/expected.h"
#include "search/glob_pattern.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agent_run {

/// A path glob over canonical paths, in the one glob dialect of agent-run (search/glob_pattern:
/// ripgrep's, so `*`, `?`, `[a-z]`, `[!a]`, `{a,b}` and `\x` within one path segment) with `**` for
/// any number of segments. A pattern without a slash (`.env`, `*.pem`) matches a file or
/// folder of that name at any depth, inside the workspace or out; one with a slash (`src/**`) is
/// anchored at the workspace root, and also matches paths outside it when it starts with `**/`;
/// `//etc/**` names absolute paths. A pattern that matches a folder matches everything in it.
struct PathPattern {
  enum class Anchor { any_depth, workspace, absolute };

  std::string text;  // as written
  Anchor anchor = Anchor::workspace;
  std::vector<std::optional<GlobPattern>> segments;  // one glob per path segment; nullopt: `**`, any number
};

/// Compiles one pattern; errors say what is wrong with it, without a file position.
Expected<PathPattern> compile_path_pattern(std::string_view text);

/// One way to see a path that a tool call names: resolved against the workspace, normalised, and
/// either inside the workspace (its relative path) or outside (its absolute path only).
struct CanonicalPath {
  bool inside = false;
  std::string relative;  // '/'-separated, "." for the workspace itself; empty when outside
  std::string absolute;  // '/'-separated, always set
};

/// The views of `text` as a path named in `workspace`: as written (normalised, `..` applied) and,
/// when the workspace exists, with symlinks resolved; one view when both agree, none for an empty
/// path. An empty `workspace` means a virtual one at /workspace, resolved without the filesystem
/// (policy examples).
std::vector<CanonicalPath> canonical_paths(const std::filesystem::path& workspace, std::string_view text);

/// True when `pattern` matches `path` or one of the folders holding it.
bool path_pattern_matches(const PathPattern& pattern, const CanonicalPath& path);

}  // namespace agent_run
