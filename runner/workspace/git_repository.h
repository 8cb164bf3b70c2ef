#pragma once

#include "base/expected.h"
#include "workspace/git_handles.h"
#include "workspace/workspace.h"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace agent_run {

/// A git repository opened with libgit2, offering the few operations workspaces are made of.
/// Commits are named by their hex ids; an empty id stands for "no commit" (an empty tree).
class GitRepository {
 public:
  /// Opens the repository whose top folder (the one holding `.git`) is `folder`.
  static Expected<GitRepository> open(const std::filesystem::path& folder);
  /// Makes `folder` a new, empty repository.
  static Expected<GitRepository> init(const std::filesystem::path& folder);

  /// The commit `ref` (a commit id, branch, tag or expression such as HEAD~1) names.
  Expected<std::string> resolve_commit(const std::string& ref) const;
  /// HEAD's commit, or an empty id when the repository has no commits yet.
  Expected<std::string> head_commit() const;

  /// Creates the local branch `branch` at `commit`; fails if it exists.
  Expected<void> create_branch(const std::string& branch, const std::string& commit);
  /// Deletes the local branch `branch` (one of agent-run's own: its config section, if any, stays);
  /// fails when it is checked out.
  Expected<void> delete_branch(const std::string& branch);

  /// Adds the linked worktree `name` in `folder` (which must not exist yet) with `branch` checked
  /// out. A failure removes what the attempt left behind, so the name can be used again.
  Expected<void> add_worktree(const std::string& name, const std::filesystem::path& folder, const std::string& branch);
  /// Removes the linked worktree `name`: its bookkeeping in this repository and its folder.
  Expected<void> prune_worktree(const std::string& name);

  /// Writes the files of `commit` into `folder`, leaving this repository's index untouched.
  Expected<void> export_commit(const std::string& commit, const std::filesystem::path& folder) const;
  /// Stages every file that is not ignored and commits it on HEAD as agent-run; returns the commit.
  Expected<std::string> commit_everything(const std::string& message);

  /// The working folder (index and untracked files included) compared with `commit`, as a patch
  /// that applies (binary files included), without the paths `withhold` gives a reason for (listed
  /// in the patch's `withheld`).
  Expected<Patch> diff_from(const std::string& commit, const PatchFilter& withhold = {}) const;
  /// The working folder as it is now (the index's entries, then every file that is not ignored)
  /// as a tree written to the object database; the index file is left as it is. A path `leave_out`
  /// gives a reason for is not written: it keeps its entry in the index (or stays out) and only its
  /// content's id is recorded.
  /// The objects are written to the loose object folder `objects`, not to the repository's.
  Expected<WorkingSnapshot> snapshot_working_folder(const PatchFilter& leave_out,
                                                    const std::filesystem::path& objects) const;
  /// The working folder compared with `snapshot`'s tree, as diff_from writes it. A path `withhold`
  /// gives a reason for is listed as withheld only when its content differs from the snapshot's.
  Expected<Patch> diff_from_snapshot(const WorkingSnapshot& snapshot, const PatchFilter& withhold) const;
  /// Writes the files of `snapshot`'s tree into `folder` (what it left out is not there), leaving
  /// this repository's index and working folder untouched.
  Expected<void> export_snapshot(const WorkingSnapshot& snapshot, const std::filesystem::path& folder) const;

  /// Applies `patch` (as diff_from writes it) to the tree of `base`, commits the result as a child
  /// of `base` and points the local branch `branch` at it (created, or moved when it exists);
  /// returns the new commit. HEAD, the index and the working folder are left alone.
  Expected<std::string> commit_patch(const std::string& base, std::string_view patch, const std::string& branch,
                                     const std::string& message);
  /// Names of this repository's linked worktrees.
  Expected<std::vector<std::string>> worktree_names() const;
  /// Whether the linked worktree `name` still has its folder (git_worktree_validate).
  bool worktree_is_valid(const std::string& name) const;
  /// The repository's common folder (`.git` of the main worktree).
  std::filesystem::path common_folder() const;

 private:
  GitRepository(GitHandle<git_repository> repository, std::filesystem::path folder)
      : m_repository(std::move(repository)), m_folder(std::move(folder)) {}

  /// The tree of `commit`, or null for the empty id.
  Expected<GitHandle<git_tree>> tree_of(const std::string& commit) const;
  /// The working folder compared with `tree` (with the index when `with_index`), as a patch;
  /// `unchanged_if` names the withheld paths whose content id says they did not change.
  Expected<Patch> diff_with(git_tree* tree, bool with_index, const PatchFilter& withhold,
                            const std::map<std::string, std::string>* unchanged_if) const;

  GitHandle<git_repository> m_repository;
  std::filesystem::path m_folder;
};

}  // namespace agent_run
