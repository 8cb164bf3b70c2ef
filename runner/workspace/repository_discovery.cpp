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

}  // namespace agent_run
