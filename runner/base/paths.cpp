#include "base/paths.h"

#include <algorithm>

namespace agent_run {

bool is_at_or_under(const std::filesystem::path& path, const std::filesystem::path& folder) {
  auto [folder_end, path_at] = std::mismatch(folder.begin(), folder.end(), path.begin(), path.end());
  return folder_end == folder.end();
}

std::filesystem::path resolved_path(const std::filesystem::path& path) {
  std::error_code ec;
  std::filesystem::path absolute = std::filesystem::absolute(path, ec);
  if (ec) return path.lexically_normal();
  std::filesystem::path resolved = std::filesystem::weakly_canonical(absolute, ec);
  return ec ? absolute.lexically_normal() : resolved;
}

}  // namespace agent_run
