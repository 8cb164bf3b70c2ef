#include "workspace/git_repository.h"
#include "workspace/isolations.h"

#include <system_error>

namespace agent_run {

namespace {

/// A linked worktree of the task's repository on a branch of its own, at the task's ref.
class WorktreeWorkspace final : public Workspace {
 public:
  WorktreeWorkspace(std::filesystem::path source, ScratchPlace place, std::string branch, std::string worktree,
                    std::string baseline)
      : m_source(std::move(source)), m_place(std::move(place)), m_branch(std::move(branch)),
        m_worktree(std::move(worktree)), m_baseline(std::move(baseline)) {}

  const std::filesystem::path& root() const override { return m_place.root; }

  WorkspaceOrigin origin() const override { return origin_of(m_place.root, m_source); }

  Expected<Patch> diff() const override { return diff_since_start(m_place.root, m_baseline); }

  Expected<std::string> commit(const std::string& branch, const std::string& message) const override {
    return commit_changes(*this, m_source, m_baseline, branch, message);
  }

  /// Prunes the worktree, deletes its branch and removes the holder folder, trying every step.
  Expected<void> finish(KeepWorkspace keep) override {
    if (m_finished || keep == KeepWorkspace::yes) {
      m_finished = true;
      return {};
    }
    m_finished = true;
    Expected<void> outcome;
    auto source = GitRepository::open(m_source);
    if (!source) {
      outcome = source.error();
    } else {
      outcome = source->prune_worktree(m_worktree);
      auto deleted = source->delete_branch(m_branch);
      if (outcome && !deleted) outcome = deleted;
    }
    std::error_code ec;
    std::filesystem::remove_all(m_place.holder, ec);
    if (outcome && ec) {
      return make_error("cannot remove '" + m_place.holder.string() + "': " + ec.message());
    }
    return outcome;
  }

 private:
  std::filesystem::path m_source;
  ScratchPlace m_place;
  std::string m_branch;
  std::string m_worktree;  // the worktree's name in the source repository's .git/worktrees
  std::string m_baseline;  // the commit the worktree started from
  bool m_finished = false;
};

}  // namespace

Expected<std::unique_ptr<Workspace>> make_worktree_workspace(const std::filesystem::path& source,
                                                             const std::string& ref, const ScratchPlace& place) {
  auto repository = GitRepository::open(source);
  if (!repository) return repository.error();
  auto commit = repository->resolve_commit(ref);
  if (!commit) return commit.error();
  std::string branch = "agent-run/" + place.label;
  std::string worktree = "agent-run-" + place.label;
  AR_TRY(repository->create_branch(branch, *commit));
  auto added = repository->add_worktree(worktree, place.root, branch);
  if (!added) {
    (void)repository->delete_branch(branch);
    return added.error();
  }
  return std::unique_ptr<Workspace>(
      std::make_unique<WorktreeWorkspace>(source, place, std::move(branch), std::move(worktree), *commit));
}

}  // namespace agent_run
