#pragma once

#include "base/expected.h"
#include "search/glob_pattern.h"

#include <cstddef>
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
  std::string magic;     // the path goes through /proc/self, /proc/<pid>, /dev/fd...: which (policy/kernel_path)
};

/// The views of `text` as a path named in `workspace`: as written (normalised, `..` applied
/// lexically) and, when the workspace exists, as the kernel resolves it (policy/kernel_path:
/// symlinks followed before `..`); one view when both agree, none for an empty path, a NUL or a
/// path over 4,096 bytes (callers refuse those). Both views carry `magic` when either goes through
/// a name that means the opening process. An empty `workspace` means a virtual one at /workspace,
/// resolved without the filesystem (policy examples).
std::vector<CanonicalPath> canonical_paths(const std::filesystem::path& workspace, std::string_view text);

/// The longest path canonical_paths reads (PATH_MAX).
inline constexpr std::size_t k_max_path_bytes = 4096;

/// True when `pattern` matches `path` or one of the folders holding it.
bool path_pattern_matches(const PathPattern& pattern, const CanonicalPath& path);

}  // namespace agent_run
