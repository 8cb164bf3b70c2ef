#pragma once

#include "base/expected.h"
#include "workspace/workspace_spec.h"

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agent_run {

/// What the agent changed in its workspace, as one unified diff with untracked files included.
/// A changed path left out of a patch, and why.
struct WithheldChange {
  std::string path;  // workspace-relative
  std::string why;   // "hidden by rule 'secrets'", ...
};

struct Patch {
  std::string text;
  int files_changed = 0;
  int lines_added = 0;
  int lines_removed = 0;
  std::vector<WithheldChange> withheld;  // changes the patch leaves out (Workspace::withhold)
};

/// Why a changed path (workspace-relative) must stay out of the patch and the commit; empty: it goes in.
using PatchFilter = std::function<std::string(std::string_view relative)>;

/// The workspace as it was when the agent started (after the task's setup): the tree diff()
/// compares with. A path the patch filter left out then is not in the object database: only its
/// content's id is kept, so that the patch can tell whether it changed since without ever
/// writing a hidden file's content into the repository.
struct WorkingSnapshot {
  std::filesystem::path objects;                // where its objects are: outside the repository, which is left as it is
  std::string tree;                             // the tree's id, in `objects`
  std::map<std::string, std::string> left_out;  // workspace-relative path -> content id ("" absent)
};

enum class KeepWorkspace { no, yes };

/// Where a workspace came from, for the sandbox: what to hide and what to keep read-only around it.
struct WorkspaceOrigin {
  std::optional<std::filesystem::path> source;  // the task's folder it was made from; nullopt in place
  std::filesystem::path git_folder;             // the repository's common folder (.git), inside the workspace or not
  std::filesystem::path git_config;             // the config git reads there (it may hold a CI token)
};

/// The origin of a folder used as it is (`agent-run tool --workspace DIR`): no source apart from it,
/// and the git folder of the repository it is the top of, if any.
WorkspaceOrigin in_place_origin(const std::filesystem::path& folder);

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
  /// Where it came from: the source folder and the git folders the sandbox must treat apart.
  virtual WorkspaceOrigin origin() const = 0;
  /// Everything changed since the workspace was made (since take_baseline(), once it was called),
  /// untracked files included, but what the filter given to withhold() leaves out (diff() and
  /// commit() both).
  virtual Expected<Patch> diff() const = 0;
  /// From now on, diff() and commit() leave out every changed path `filter` gives a reason for.
  void withhold(PatchFilter filter) { m_withhold = std::move(filter); }
  /// From now on, diff() holds only what changes after this call: what the task's setup wrote, and
  /// the untracked files an in-place workspace already had, are not the agent's changes. What the
  /// current filter withholds is hashed, never stored (WorkingSnapshot). The repository's index,
  /// HEAD and files are left as they are.
  /// The snapshot's objects go to `objects` (a folder outside the workspace and its repository,
  /// which stays as it was; made if missing), which must live until the last diff().
  Expected<void> take_baseline(const std::filesystem::path& objects);
  /// The id of the tree take_baseline() recorded (the files the agent started with, hidden ones
  /// only hashed); empty before it was called.
  std::string baseline_tree() const { return m_start ? m_start->tree : std::string(); }
  /// Writes that tree's files into `folder`, a scratch checkout of the baseline that leaves the
  /// workspace as it is: tracked files and what setup wrote that git would track, not what
  /// .gitignore leaves out, nor a hidden file. Fails before take_baseline().
  Expected<void> export_baseline(const std::filesystem::path& folder) const;
  /// Removes the folder (and the worktree's bookkeeping in the source repository) unless kept.
  virtual Expected<void> finish(KeepWorkspace keep) = 0;
  /// Commits everything changed (diff()) to the local branch `branch` of the task's repository,
  /// created or moved, as a child of the commit the workspace started from; returns the commit.
  /// HEAD, index and files of the task's repository stay as they are. Fails for a copy of a
  /// folder that is not a git repository.
  virtual Expected<std::string> commit(const std::string& branch, const std::string& message) const = 0;

 protected:
  const PatchFilter& withholding() const { return m_withhold; }
  /// diff()'s answer for a workspace whose repository is at `root` and which started at `baseline`.
  Expected<Patch> diff_since_start(const std::filesystem::path& root, const std::string& baseline) const;

 private:
  PatchFilter m_withhold;                  // empty: nothing withheld
  std::optional<WorkingSnapshot> m_start;  // take_baseline()'s; nullopt: the baseline commit
};

}  // namespace agent_run
