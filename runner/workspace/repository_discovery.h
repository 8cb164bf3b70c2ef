#pragma once

#include <filesystem>
#include <optional>

namespace agent_run {

/// The top folder of the git repository that holds `path` (the nearest ancestor with a `.git`), or
/// nullopt when there is none: the default `workspace.repo` of a task is the repository holding it.
std::optional<std::filesystem::path> find_enclosing_repository(const std::filesystem::path& path);

}  // namespace agent_run
