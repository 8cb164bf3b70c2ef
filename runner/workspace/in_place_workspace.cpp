#include "workspace/git_repository.h"
#include "workspace/isolations.h"

namespace agent_run {

namespace {

/// The task's repository itself (a CI step on its own checkout): nothing is made or removed.
class InPlaceWorkspace final : public Workspace {
 public:
  InPlaceWorkspace(std::filesystem::path root, std::string baseline)
      : m_root(std::move(root)), m_baseline(std::move(baseline)) {}

  const std::filesystem::path& root() const override { return m_root; }

  WorkspaceOrigin origin() const override { return origin_of(m_root, std::nullopt); }

  Expected<Patch> diff() const override { return diff_since_start(m_root, m_baseline); }

  Expected<void> finish(KeepWorkspace) override { return {}; }

  Expected<std::string> commit(const std::string& branch, const std::string& message) const override {
    return commit_changes(*this, m_root, m_baseline, branch, message);
  }

 private:
  std::filesystem::path m_root;
  std::string m_baseline;  // HEAD when the workspace was prepared; empty before the first commit
};

}  // namespace

Expected<std::unique_ptr<Workspace>> make_in_place_workspace(const std::filesystem::path& source) {
  auto repository = GitRepository::open(source);
  if (!repository) return repository.error();
  auto head = repository->head_commit();
  if (!head) return head.error();
  return std::unique_ptr<Workspace>(std::make_unique<InPlaceWorkspace>(source, std::move(*head)));
}

}  // namespace agent_run
