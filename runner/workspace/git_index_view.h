#pragma once

#include "base/expected.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// A copy of a repository's index for the sandbox to see instead of the real one.
struct GitIndexView {
  std::filesystem::path index;  // the repository's own index file: the copy is bound over it
  std::filesystem::path copy;   // the copy, every hidden tracked path in it marked skip-worktree
};

/// The view of the index of the repository at `workspace` in which the tracked files that the
/// sandbox hides (`hidden`: workspace-relative paths, files or folders) are marked skip-worktree,
/// written to `copy`: inside, `git diff` and `git status` neither try to read those files (a mask
/// makes them unreadable: "cannot hash") nor report them as changed or deleted (which would print
/// their committed content). nullopt when the workspace is no repository or no hidden path is
/// tracked, so the real index is seen unchanged.
Expected<std::optional<GitIndexView>> git_index_view(const std::filesystem::path& workspace,
                                                     const std::vector<std::string>& hidden,
                                                     const std::filesystem::path& copy);

}  // namespace agent_run
