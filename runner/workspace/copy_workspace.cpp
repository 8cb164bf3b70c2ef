#include "workspace/git_repository.h"
#include "workspace/isolations.h"

#include <system_error>

namespace agent_run {

namespace {

/// The repository a copy was exported from and the commit it holds: where its changes are committed.
struct CopyOrigin {
  std::filesystem::path repository;
  std::string commit;
};

/// A copy of the task's folder in a repository of its own, compared with its baseline commit.
class CopyWorkspace final : public Workspace {
 public:
  CopyWorkspace(ScratchPlace place, std::string baseline, std::optional<CopyOrigin> origin,
                std::filesystem::path source)
      : m_place(std::move(place)), m_baseline(std::move(baseline)), m_origin(std::move(origin)),
        m_source(std::move(source)) {}

  const std::filesystem::path& root() const override { return m_place.root; }

  WorkspaceOrigin origin() const override { return origin_of(m_place.root, m_source); }

  Expected<Patch> diff() const override { return diff_since_start(m_place.root, m_baseline); }

  Expected<void> finish(KeepWorkspace keep) override {
    if (keep == KeepWorkspace::yes) return {};
    std::error_code ec;
    std::filesystem::remove_all(m_place.holder, ec);
    if (ec) return make_error("cannot remove '" + m_place.holder.string() + "': " + ec.message());
    return {};
  }

  Expected<std::string> commit(const std::string& branch, const std::string& message) const override {
    if (!m_origin) {
      return make_error("cannot commit to '" + branch +
                        "': the workspace is a copy of a folder that is not a git repository");
    }
    return commit_changes(*this, m_origin->repository, m_origin->commit, branch, message);
  }

 private:
  ScratchPlace m_place;
  std::string m_baseline;
  std::optional<CopyOrigin> m_origin;  // nullopt: a copy of a plain folder
  std::filesystem::path m_source;      // the folder copied
};

bool is_same_folder(const std::filesystem::path& a, const std::filesystem::path& b) {
  std::error_code ec;
  return std::filesystem::equivalent(a, b, ec);
}

/// Copies the files, folders and symbolic links of `from` into `to`, leaving out every `.git` and
/// the scratch folder (should it lie inside `from`). Sockets and pipes are left out too.
Expected<void> copy_folder(const std::filesystem::path& from, const std::filesystem::path& to,
                           const std::filesystem::path& scratch_parent) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(to, ec);
  auto failure = [&](const fs::path& path) {
    return make_error("cannot copy '" + path.string() + "' to '" + to.string() + "': " + ec.message());
  };
  if (ec) return failure(from);
  fs::recursive_directory_iterator entry(from, ec);
  for (; !ec && entry != fs::recursive_directory_iterator(); entry.increment(ec)) {
    const fs::path& path = entry->path();
    fs::file_status status = entry->symlink_status(ec);
    bool is_folder = fs::is_directory(status);
    if (path.filename() == ".git" || (is_folder && is_same_folder(path, scratch_parent))) {
      if (is_folder) entry.disable_recursion_pending();
      continue;
    }
    fs::path target = to / path.lexically_relative(from);
    if (fs::is_symlink(status)) fs::copy_symlink(path, target, ec);
    else if (is_folder) fs::create_directory(target, ec);
    else if (fs::is_regular_file(status)) fs::copy_file(path, target, ec);
    if (ec) return failure(path);
  }
  if (ec) return failure(from);
  return {};
}

/// Fills `place.root` with the files to work on and commits them; returns the baseline commit.
/// `origin` receives the exported commit when `ref` is given.
Expected<std::string> fill_and_commit(const std::filesystem::path& source, const std::optional<std::string>& ref,
                                      const ScratchPlace& place, std::optional<CopyOrigin>& origin) {
  if (ref) {
    auto repository = GitRepository::open(source);
    if (!repository) return repository.error();
    auto commit = repository->resolve_commit(*ref);
    if (!commit) return commit.error();
    std::error_code ec;
    std::filesystem::create_directories(place.root, ec);
    AR_TRY(repository->export_commit(*commit, place.root));
    origin = CopyOrigin{source, *commit};
  } else {
    AR_TRY(copy_folder(source, place.root, place.scratch_parent));
  }
  auto copy = GitRepository::init(place.root);
  if (!copy) return copy.error();
  return copy->commit_everything("agent-run baseline");
}

}  // namespace

Expected<std::unique_ptr<Workspace>> make_copy_workspace(const std::filesystem::path& source,
                                                         const std::optional<std::string>& ref,
                                                         const ScratchPlace& place) {
  std::optional<CopyOrigin> origin;
  auto baseline = fill_and_commit(source, ref, place, origin);
  if (!baseline) return baseline.error();
  return std::unique_ptr<Workspace>(
      std::make_unique<CopyWorkspace>(place, std::move(*baseline), std::move(origin), source));
}

}  // namespace agent_run
