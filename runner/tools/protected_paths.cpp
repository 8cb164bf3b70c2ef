#include "tools/protected_paths.h"

#include "base/paths.h"
#include "base/text.h"

#include <algorithm>

namespace agent_run {

namespace {

namespace fs = std::filesystem;

bool names_git_folder(const fs::path& path, const fs::path& workspace) {
  const fs::path segments = is_at_or_under(path, workspace) ? path.lexically_relative(workspace) : path;
  return std::any_of(segments.begin(), segments.end(),
                     [](const fs::path& segment) { return is_git_folder_name(segment.native()); });
}

/// is_at_or_under for paths that are absolute, normal and without a trailing '/', as text.
bool is_normal_at_or_under(std::string_view path, std::string_view folder) {
  return path == folder || (path.size() > folder.size() && path.starts_with(folder) && path[folder.size()] == '/');
}

}  // namespace

bool is_git_folder_name(std::string_view segment) {
  while (!segment.empty() && (segment.back() == '.' || segment.back() == ' ')) segment.remove_suffix(1);
  return equal_ignoring_case(segment, ".git");
}

std::optional<Protection> write_protection(const fs::path& path, const fs::path& workspace,
                                           const std::vector<fs::path>& protected_paths) {
  if (names_git_folder(path, workspace)) return Protection::git_folder;
  for (const fs::path& protected_path : protected_paths) {
    const fs::path folder = resolved_path(protected_path);
    if (is_at_or_under(workspace, folder)) continue;  // holds the whole workspace: protects nothing
    if (is_at_or_under(path, folder)) return Protection::protected_path;
  }
  return std::nullopt;
}

std::optional<Protection> write_protection_of_normal(std::string_view path, std::string_view workspace,
                                                     const std::vector<std::string>& resolved_paths) {
  std::string_view below = path;
  if (workspace != "/" && is_normal_at_or_under(path, workspace)) below.remove_prefix(workspace.size());
  while (!below.empty()) {
    if (below.front() == '/') {
      below.remove_prefix(1);
      continue;
    }
    const std::string_view segment = below.substr(0, below.find('/'));
    if (is_git_folder_name(segment)) return Protection::git_folder;
    below.remove_prefix(segment.size());
  }
  for (const std::string& folder : resolved_paths) {
    if (folder == "/" || is_normal_at_or_under(workspace, folder)) continue;  // holds the whole workspace
    if (is_normal_at_or_under(path, folder)) return Protection::protected_path;
  }
  return std::nullopt;
}

}  // namespace agent_run
