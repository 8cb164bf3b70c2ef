#include "workspace/workspace.h"

#include "base/files.h"
#include "base/json.h"
#include "workspace/git_repository.h"
#include "workspace/isolations.h"
#include "workspace/scratch_area.h"
#include "workspace/small_files.h"
#include "workspace/workspace_problem.h"

#include <cctype>
#include <system_error>

namespace agent_run {

namespace {

constexpr std::size_t k_max_name_length = 40;

std::string quoted(const std::filesystem::path& path) { return "'" + path.string() + "'"; }

/// `name` with everything but letters, digits, `_` and `-` replaced, safe in a branch name.
std::string slug(const std::string& name) {
  std::string out;
  for (char c : name.substr(0, k_max_name_length)) {
    bool keep = std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
    out += keep ? c : '-';
  }
  if (out.empty() || out.front() == '-') out.insert(0, "a");
  return out;
}

/// The last component of `folder`, which names the workspace's root: `app` for `/src/app/`.
std::string folder_name(const std::filesystem::path& folder) {
  std::error_code ec;
  std::filesystem::path normal = std::filesystem::absolute(folder, ec).lexically_normal();
  if (normal.filename().empty()) normal = normal.parent_path();
  std::string name = normal.filename().string();
  return name.empty() ? "workspace" : name;
}

/// Makes the unique holder folder under `scratch_parent`; its random suffix makes the label unique.
Expected<ScratchPlace> make_scratch_place(const std::filesystem::path& source,
                                          const std::filesystem::path& scratch_parent, const std::string& name) {
  std::string prefix = slug(name) + "-";
  auto holder = make_unique_folder(scratch_parent, prefix);
  if (!holder) return holder.error();
  ScratchPlace place;
  place.holder = *holder;
  place.root = *holder / folder_name(source);
  place.scratch_parent = scratch_parent;
  place.label = holder->filename().string();
  return place;
}

/// Writes the holder's manifest before anything else is made, so that a later run can undo a
/// workspace its killed run left behind (scratch_area.cpp reads it).
Expected<void> write_manifest(const ScratchPlace& place, const std::filesystem::path& source, Isolation isolation) {
  Json manifest = Json::object();
  manifest.set("source", std::filesystem::absolute(source).lexically_normal().string())
      .set("isolation", isolation == Isolation::worktree ? "worktree" : "copy")
      .set("label", place.label);
  return write_small_file(place.holder / k_workspace_manifest, manifest.dump());
}

Expected<void> check_folder(const std::filesystem::path& folder) {
  std::error_code ec;
  if (!std::filesystem::exists(folder, ec)) return make_error(quoted(folder) + " does not exist");
  if (!std::filesystem::is_directory(folder, ec)) return make_error(quoted(folder) + " is not a folder");
  return {};
}

Error not_a_repository(const std::filesystem::path& folder, const std::string& isolation, const std::string& advice) {
  return make_error(quoted(folder) + " is not the top folder of a git repository (isolation: " + isolation +
                    " needs one" + advice + ")");
}

}  // namespace

std::optional<WorkspaceProblem> workspace_problem(const WorkspaceSpec& spec) {
  using Key = WorkspaceProblem::Key;
  if (auto folder = check_folder(spec.repo); !folder) return WorkspaceProblem{Key::repo, folder.error().message};
  std::error_code ec;
  bool is_repository_top = std::filesystem::exists(spec.repo / ".git", ec);
  Isolation isolation = spec.isolation.value_or(is_repository_top ? Isolation::worktree : Isolation::copy);
  if (isolation != Isolation::copy && !is_repository_top) {
    std::string name = isolation == Isolation::in_place ? "in-place" : "worktree";
    return WorkspaceProblem{Key::repo, not_a_repository(spec.repo, name, isolation == Isolation::worktree
                                                                            ? "; use isolation: copy"
                                                                            : "").message};
  }
  if (!is_repository_top || isolation == Isolation::in_place) return std::nullopt;
  auto repository = GitRepository::open(spec.repo);
  if (!repository) return WorkspaceProblem{Key::repo, repository.error().message};
  if (auto head = repository->head_commit(); spec.ref == "HEAD" && head && head->empty()) return std::nullopt;
  if (auto commit = repository->resolve_commit(spec.ref); !commit) {
    return WorkspaceProblem{Key::ref, "'" + spec.ref + "' names no commit of " + quoted(spec.repo) + ": " +
                                          commit.error().message};
  }
  return std::nullopt;
}

Expected<std::unique_ptr<Workspace>> Workspace::prepare(const WorkspaceSpec& spec,
                                                        const std::filesystem::path& scratch_parent,
                                                        const std::string& name) {
  AR_TRY(check_folder(spec.repo));
  std::error_code ec;
  bool is_repository_top = std::filesystem::exists(spec.repo / ".git", ec);
  Isolation isolation = spec.isolation.value_or(is_repository_top ? Isolation::worktree : Isolation::copy);
  if (isolation == Isolation::in_place) {
    if (!is_repository_top) return not_a_repository(spec.repo, "in-place", "");
    return make_in_place_workspace(spec.repo);
  }
  if (isolation == Isolation::worktree && !is_repository_top) {
    return not_a_repository(spec.repo, "worktree", "; use isolation: copy");
  }
  auto place = make_scratch_place(spec.repo, scratch_parent, name);
  if (!place) return place.error();
  if (auto written = write_manifest(*place, spec.repo, isolation); !written) {
    std::filesystem::remove_all(place->holder, ec);
    return written.error();
  }
  auto workspace =
      isolation == Isolation::worktree
          ? make_worktree_workspace(spec.repo, spec.ref, *place)
          : make_copy_workspace(spec.repo, is_repository_top ? std::optional(spec.ref) : std::nullopt, *place);
  if (!workspace) std::filesystem::remove_all(place->holder, ec);
  return workspace;
}

WorkspaceOrigin origin_of(const std::filesystem::path& root, const std::optional<std::filesystem::path>& source) {
  WorkspaceOrigin origin;
  if (source) origin.source = std::filesystem::absolute(*source).lexically_normal();
  auto repository = GitRepository::open(root);
  origin.git_folder = repository ? repository->common_folder().lexically_normal() : root / ".git";
  if (origin.git_folder.filename().empty()) origin.git_folder = origin.git_folder.parent_path();
  origin.git_config = origin.git_folder / "config";
  return origin;
}

WorkspaceOrigin in_place_origin(const std::filesystem::path& folder) { return origin_of(folder, std::nullopt); }

Expected<void> Workspace::take_baseline(const std::filesystem::path& objects) {
  auto repository = GitRepository::open(root());
  if (!repository) return repository.error();
  auto snapshot = repository->snapshot_working_folder(m_withhold, objects);
  if (!snapshot) return make_error("cannot record the workspace after setup: " + snapshot.error().message);
  m_start = std::move(*snapshot);
  return {};
}

Expected<void> Workspace::export_baseline(const std::filesystem::path& folder) const {
  if (!m_start) return make_error("no baseline was recorded after setup");
  auto repository = GitRepository::open(root());
  if (!repository) return repository.error();
  AR_TRY(repository->export_snapshot(*m_start, folder));
  if (!m_withhold) return {};
  // A tracked file the filter withholds (a committed .env) keeps its entry in the snapshot's tree.
  std::vector<std::filesystem::path> withheld;
  std::error_code ec;
  for (auto walk = std::filesystem::recursive_directory_iterator(folder, ec);
       !ec && walk != std::filesystem::recursive_directory_iterator(); walk.increment(ec)) {
    if (!m_withhold(walk->path().lexically_relative(folder).generic_string()).empty()) {
      withheld.push_back(walk->path());
      walk.disable_recursion_pending();
    }
  }
  for (const std::filesystem::path& path : withheld) std::filesystem::remove_all(path, ec);
  if (ec) return make_error("cannot remove a hidden file from the baseline tree: " + ec.message());
  return {};
}

Expected<Patch> Workspace::diff_since_start(const std::filesystem::path& root, const std::string& baseline) const {
  auto repository = GitRepository::open(root);
  if (!repository) return repository.error();
  if (m_start) return repository->diff_from_snapshot(*m_start, m_withhold);
  return repository->diff_from(baseline, m_withhold);
}

Expected<std::string> commit_changes(const Workspace& workspace, const std::filesystem::path& repository,
                                     const std::string& base, const std::string& branch, const std::string& message) {
  auto patch = workspace.diff();
  if (!patch) return patch.error();
  auto target = GitRepository::open(repository);
  if (!target) return target.error();
  return target->commit_patch(base, patch->text, branch, message);
}

}  // namespace agent_run
