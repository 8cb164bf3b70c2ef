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

}  // namespace agent_run
