#include "workspace/repository_discovery.h"

namespace agent_run {

std::optional<std::filesystem::path> find_enclosing_repository(const std::filesystem::path& path) {
  std::error_code ec;
  std::filesystem::path folder = std::filesystem::absolute(path, ec).lexically_normal();
  if (!std::filesystem::is_directory(folder, ec)) {
    folder = folder.parent_path();
  }
  for (;;) {
    if (std::filesystem::exists(folder / ".git", ec)) {
      return folder;
    }
    if (!folder.has_relative_path()) {
      return std::nullopt;
    }
    folder = folder.parent_path();
  }
}

std::vector<std::filesystem::path> folders_above_in_repository(const std::filesystem::path& folder) {
  std::error_code ec;
  const std::filesystem::path start = std::filesystem::weakly_canonical(folder, ec);
  std::optional<std::filesystem::path> top = find_enclosing_repository(ec ? folder : start);
  std::vector<std::filesystem::path> above;
  if (!top || ec) return above;
  for (std::filesystem::path at = start; at != *top && at.has_relative_path();) {
    at = at.parent_path();
    above.insert(above.begin(), at);
  }
  return above;
}

}  // namespace agent_run
