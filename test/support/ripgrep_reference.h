#pragma once

#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace agent_run::test {

/// Where ripgrep is: ci/setup.sh installs Debian's.
inline constexpr const char* k_ripgrep = "/usr/bin/rg";

/// Relative file paths of a generated tree: names with dots, dashes, brackets and leading dots, one
/// to four folders deep, never a file where another path needs a folder. Same `seed`, same tree.
std::vector<std::string> generated_tree_paths(std::uint32_t seed, std::size_t count);

/// Globs of ripgrep's dialect made for comparing matchers: `**` alone, leading, trailing, doubled and
/// inside a name (`**.c`), classes, negated classes, braces, `?` and escapes, over the names
/// generated_tree_paths uses. Never a leading `/` or `!`, a trailing `/` or a `.`/`..` segment.
/// Same `seed`, same patterns; the fixed cases come first.
std::vector<std::string> generated_globs(std::uint32_t seed, std::size_t count);

/// Makes each of `paths` as an empty file under `root`.
void make_tree(const std::filesystem::path& root, const std::vector<std::string>& paths);

/// The files `rg --files --hidden --no-ignore -g GLOB` lists in `root` (relative, no "./"): the
/// reference the glob tool and policy paths are compared with. A test error when rg fails.
std::set<std::string> ripgrep_files(const std::filesystem::path& root, const std::string& glob);

}  // namespace agent_run::test
