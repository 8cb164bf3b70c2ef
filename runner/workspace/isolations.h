#pragma once

#include "base/expected.h"
#include "workspace/workspace.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

namespace agent_run {

/// Where a new workspace is made: `root`, inside a fresh uniquely named `holder` folder.
struct ScratchPlace {
  std::filesystem::path holder;          // made by prepare(); removed by finish() and on failure
  std::filesystem::path root;            // holder / the source folder's name; does not exist yet
  std::filesystem::path scratch_parent;  // the folder holding every holder; never copied
  std::string label;                     // "<name>-<random>", safe in branch and worktree names
};

/// A linked git worktree of `source` on a new branch `agent-run/<label>` at `ref`.
Expected<std::unique_ptr<Workspace>> make_worktree_workspace(const std::filesystem::path& source,
                                                             const std::string& ref, const ScratchPlace& place);

/// A copy of `source` (its files at `ref` when given, else the folder as it is, without any .git
/// folder) in a new git repository whose baseline commit holds every copied file.
Expected<std::unique_ptr<Workspace>> make_copy_workspace(const std::filesystem::path& source,
                                                         const std::optional<std::string>& ref,
                                                         const ScratchPlace& place);

/// The git repository `source` itself, compared with the commit HEAD named when it was prepared.
Expected<std::unique_ptr<Workspace>> make_in_place_workspace(const std::filesystem::path& source);

/// The origin of a workspace at `root` made from `source` (nullopt: in place): its repository's
/// common folder and config as libgit2 finds them.
WorkspaceOrigin origin_of(const std::filesystem::path& root, const std::optional<std::filesystem::path>& source);

/// Commits what `workspace` changed to `branch` of `repository` as a child of `base` (the shared
/// part of every Workspace::commit).
Expected<std::string> commit_changes(const Workspace& workspace, const std::filesystem::path& repository,
                                     const std::string& base, const std::string& branch, const std::string& message);

}  // namespace agent_run
