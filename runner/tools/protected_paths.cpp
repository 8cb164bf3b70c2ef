#include "tools/protected_paths.h"

#include "base/text.h"

#include <algorithm>

namespace agent_run {

namespace {

namespace fs = std::filesystem;

bool is_at_or_under(const fs::path& path, const fs::path& folder) {
  auto [folder_end, path_at] = std::mismatch(folder.begin(), folder.end(), path.begin(), path.end());
  return folder_end == folder.end();
}

/// `path` made absolute and resolved as far as it exists, or as written when that fails.
fs::path resolved(const fs::path& path) {
  std::error_code ec;
  fs::path absolute = fs::absolute(path, ec);
  if (ec) return path.lexically_normal();
  fs::path canonical = fs::weakly_canonical(absolute, ec);
  return ec ? absolute.lexically_normal() : canonical.lexically_normal();
}

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
    const fs::path folder = resolved(protected_path);
    if (is_at_or_under(workspace, folder)) continue;  // holds the whole workspace: protects nothing
    if (is_at_or_under(path, folder)) return Protection::protected_path;
  }
  return std::nullopt;
}

}  // namespace agent_run
