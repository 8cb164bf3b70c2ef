#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agent_run {

/// Why a path may never be written, whatever a policy says.
enum class Protection {
  git_folder,      // it is, or is inside, a folder named .git
  protected_path,  // it is, or is inside, a protected path (the policy file, the task file, the report folder)
};

/// True when one path segment names a .git folder as Windows and macOS would read it: case folded,
/// trailing dots and spaces ignored (`.GIT`, `.git.`, `.git `).
bool is_git_folder_name(std::string_view segment);

/// The one rule of what is never written, asked by the policy (for each view of a path a call
/// names) and by the file tools (for the path they resolved): `path` (absolute, normalised) is
/// protected when a segment of it names a .git folder (only the segments below `workspace` count
/// when it is inside the workspace) or when it is at or under one of `protected_paths` (made
/// absolute and resolved; one that holds the whole workspace protects nothing, or every path would
/// be denied). `workspace` is absolute and resolved. nullopt: it may be written.
std::optional<Protection> write_protection(const std::filesystem::path& path, const std::filesystem::path& workspace,
                                           const std::vector<std::filesystem::path>& protected_paths);

/// write_protection for a caller that asks of many paths: `path` and `workspace` absolute, normal and
/// without a trailing '/', `resolved_paths` the protected paths already resolved (resolved_path) in
/// the same form; compared as text, so it looks at nothing on disk and makes nothing.
std::optional<Protection> write_protection_of_normal(std::string_view path, std::string_view workspace,
                                                     const std::vector<std::string>& resolved_paths);

}  // namespace agent_run
