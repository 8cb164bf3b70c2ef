#pragma once

#include "base/expected.h"
#include "workspace/workspace_spec.h"

#include <filesystem>
#include <memory>
#include <string>

namespace agent_run {

/// What the agent changed in its workspace, as one unified diff with untracked files included.
struct Patch {
  std::string text;
  int files_changed = 0;
  int lines_added = 0;
  int lines_removed = 0;
};

enum class KeepWorkspace { no, yes };

/// The folder one attempt works in, made from the task's repository (a git worktree at the task's
/// ref, a copy with a baseline commit, or the folder itself) and removed when the attempt is over.
class Workspace {
 public:
  /// Makes a fresh workspace for `spec` under `scratch_parent`, named after `name`.
  static Expected<std::unique_ptr<Workspace>> prepare(const WorkspaceSpec& spec,
                                                      const std::filesystem::path& scratch_parent,
                                                      const std::string& name);
  virtual ~Workspace() = default;

  /// The folder the agent works in.
  virtual const std::filesystem::path& root() const = 0;
  /// Everything changed since the workspace was made, untracked files included.
  virtual Expected<Patch> diff() const = 0;
  /// Removes the folder (and the worktree's bookkeeping in the source repository) unless kept.
  virtual Expected<void> finish(KeepWorkspace keep) = 0;
  /// Commits everything changed (diff()) to the local branch `branch` of the task's repository,
  /// created or moved, as a child of the commit the workspace started from; returns the commit.
  /// HEAD, index and files of the task's repository stay as they are. Fails for a copy of a
  /// folder that is not a git repository.
  virtual Expected<std::string> commit(const std::string& branch, const std::string& message) const = 0;
};

}  // namespace agent_run
