#pragma once

#include <filesystem>
#include <optional>
#include <vector>

namespace agent_run {

/// The top folder of the git repository that holds `path` (the nearest ancestor with a `.git`), or
/// nullopt when there is none: the default `workspace.repo` of a task is the repository holding it.
std::optional<std::filesystem::path> find_enclosing_repository(const std::filesystem::path& path);

/// The folders above `folder` up to the top of the git repository holding it, outermost first (where
/// a monorepo's shared AGENTS.md lives); empty when `folder` is that top or in no repository.
std::vector<std::filesystem::path> folders_above_in_repository(const std::filesystem::path& folder);

}  // namespace agent_run
