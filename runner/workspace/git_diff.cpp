// GitRepository's patches: the working folder compared with a commit or with the snapshot taken
// after setup, and that snapshot.
#include "workspace/git_repository.h"

#include <git2.h>
#include <git2/odb_backend.h>
#include <sys/stat.h>

#include <system_error>

namespace agent_run {

namespace {

namespace fs = std::filesystem;

std::string hex_id(const git_oid& id) {
  char buffer[GIT_OID_HEXSZ + 1];
  git_oid_tostr(buffer, sizeof buffer, &id);
  return buffer;
}

/// What is at `path` now, as the snapshot and the patch compare it: a regular file's blob id (with
/// `x` when executable), a symbolic link's target, "" when nothing (or something else) is there.
std::string content_id(const fs::path& path) {
  struct stat status {};
  if (::lstat(path.c_str(), &status) != 0) return "";
  if (S_ISLNK(status.st_mode)) {
    std::error_code ec;
    fs::path target = fs::read_symlink(path, ec);
    return ec ? "link?" : "link:" + target.string();
  }
  if (!S_ISREG(status.st_mode)) return "";
  git_oid id;
  if (git_odb_hashfile(&id, path.c_str(), GIT_OBJECT_BLOB) != 0) return "unreadable";
  return hex_id(id) + ((status.st_mode & S_IXUSR) != 0 ? "x" : "");
}

/// What snapshot_working_folder's libgit2 callback needs: the filter and where to record what it left out.
struct LeavingOut {
  const PatchFilter* filter;
  std::map<std::string, std::string>* left_out;
  fs::path workdir;
};

/// libgit2's index callback: 1 leaves the path as the index has it (its content is not written).
int leave_out_path(const char* path, const char*, void* payload) {
  auto* leaving = static_cast<LeavingOut*>(payload);
  if (!*leaving->filter || (*leaving->filter)(path).empty()) return 0;
  (*leaving->left_out)[path] = content_id(leaving->workdir / path);
  return 1;
}

/// What diff_with's libgit2 callback needs: the filter, where to list what it left out, and the
/// content ids of the paths a snapshot left out (null: none).
struct WithholdingPayload {
  const PatchFilter* filter;
  std::vector<WithheldChange>* withheld;
  const std::map<std::string, std::string>* unchanged_if;
  fs::path workdir;
};

/// Whether `path`, left out of the snapshot, still has the content it had then.
bool unchanged_since_snapshot(const WithholdingPayload& withholding, const std::string& path) {
  if (withholding.unchanged_if == nullptr) return false;
  auto found = withholding.unchanged_if->find(path);
  return found != withholding.unchanged_if->end() && found->second == content_id(withholding.workdir / path);
}

/// libgit2's notify callback: 1 leaves the delta out of the diff. A path the snapshot left out that
/// is as it was then is no change at all; one the filter withholds is listed.
int withhold_delta(const git_diff*, const git_diff_delta* delta, const char*, void* payload) {
  auto* withholding = static_cast<WithholdingPayload*>(payload);
  for (const char* path : {delta->new_file.path, delta->old_file.path}) {
    if (path == nullptr) continue;
    if (unchanged_since_snapshot(*withholding, path)) return 1;
    std::string why = *withholding->filter ? (*withholding->filter)(path) : std::string();
    if (why.empty()) continue;
    withholding->withheld->push_back(WithheldChange{path, std::move(why)});
    return 1;
  }
  return 0;
}

/// Makes `objects` (a loose object folder) the first place `repository` writes objects to and
/// looks them up in, for as long as this handle lives.
Expected<void> use_object_folder(git_repository* repository, const fs::path& objects) {
  std::error_code ec;
  fs::create_directories(objects, ec);
  if (ec) return make_error("cannot make '" + objects.string() + "': " + ec.message());
  git_odb* odb = nullptr;
  if (git_repository_odb(&odb, repository) != 0) return git_failure("cannot open the object database");
  git_odb_backend* backend = nullptr;
  int added = git_odb_backend_loose(&backend, objects.c_str(), -1, 0, 0, 0);
  if (added == 0) added = git_odb_add_backend(odb, backend, 1000);  // before the repository's own
  git_odb_free(odb);
  if (added != 0) return git_failure("cannot use '" + objects.string() + "' for objects");
  return {};
}

/// The tree a snapshot recorded after setup, its objects read from the snapshot's own folder.
Expected<GitHandle<git_tree>> snapshot_tree(git_repository* repository, const WorkingSnapshot& snapshot) {
  AR_TRY(use_object_folder(repository, snapshot.objects));
  git_oid id;
  git_tree* raw = nullptr;
  if (git_oid_fromstr(&id, snapshot.tree.c_str()) != 0 || git_tree_lookup(&raw, repository, &id) != 0) {
    return git_failure("cannot find the tree " + snapshot.tree + " recorded after setup");
  }
  return GitHandle<git_tree>(raw);
}

}  // namespace

Expected<Patch> GitRepository::diff_from(const std::string& commit, const PatchFilter& withhold) const {
  auto tree = tree_of(commit);
  if (!tree) return tree.error();
  return diff_with(tree->get(), true, withhold, nullptr);
}

Expected<WorkingSnapshot> GitRepository::snapshot_working_folder(const PatchFilter& leave_out,
                                                                  const fs::path& objects) const {
  std::string failure = "cannot record the working folder of '" + m_folder.string() + "'";
  AR_TRY(use_object_folder(m_repository.get(), objects));
  git_index* raw = nullptr;
  if (git_repository_index(&raw, m_repository.get()) != 0) return git_failure(failure);
  GitHandle<git_index> index(raw);
  WorkingSnapshot snapshot;
  LeavingOut leaving{&leave_out, &snapshot.left_out, m_folder};
  git_oid tree_id;
  // The index is changed in memory only (never written) and read back from its file afterwards.
  const bool recorded = git_index_add_all(index.get(), nullptr, GIT_INDEX_ADD_DEFAULT, leave_out_path, &leaving) == 0 &&
                        git_index_update_all(index.get(), nullptr, leave_out_path, &leaving) == 0 &&
                        git_index_write_tree(&tree_id, index.get()) == 0;
  if (!recorded) {
    Error error = git_failure(failure);
    (void)git_index_read(index.get(), 1);
    return error;
  }
  (void)git_index_read(index.get(), 1);
  snapshot.objects = objects;
  snapshot.tree = hex_id(tree_id);
  return snapshot;
}

Expected<Patch> GitRepository::diff_from_snapshot(const WorkingSnapshot& snapshot, const PatchFilter& withhold) const {
  AR_TRY_ASSIGN(GitHandle<git_tree> tree, snapshot_tree(m_repository.get(), snapshot));
  // Without the index: a file setup left untracked is in the snapshot's tree but not in the index,
  // which libgit2's tree-index-workdir merge would show as deleted.
  return diff_with(tree.get(), false, withhold, &snapshot.left_out);
}

Expected<void> GitRepository::export_snapshot(const WorkingSnapshot& snapshot, const fs::path& folder) const {
  AR_TRY_ASSIGN(GitHandle<git_tree> tree, snapshot_tree(m_repository.get(), snapshot));
  std::string target = folder.string();
  git_checkout_options options = GIT_CHECKOUT_OPTIONS_INIT;
  // Without DONT_UPDATE_INDEX libgit2 rewrites this repository's index, losing staged work.
  options.checkout_strategy = GIT_CHECKOUT_FORCE | GIT_CHECKOUT_DONT_UPDATE_INDEX;
  options.target_directory = target.c_str();
  if (git_checkout_tree(m_repository.get(), reinterpret_cast<git_object*>(tree.get()), &options) != 0) {
    return git_failure("cannot write the tree recorded after setup to '" + target + "'");
  }
  return {};
}

Expected<Patch> GitRepository::diff_with(git_tree* tree, bool with_index, const PatchFilter& withhold,
                                         const std::map<std::string, std::string>* unchanged_if) const {
  std::string failure = "cannot compare '" + m_folder.string() + "' with its starting point";
  git_diff_options options = GIT_DIFF_OPTIONS_INIT;
  // SHOW_BINARY: binary files as `GIT binary patch` literals, so that the patch applies (git apply,
  // commit_patch) instead of saying "Binary files differ".
  options.flags = GIT_DIFF_INCLUDE_UNTRACKED | GIT_DIFF_RECURSE_UNTRACKED_DIRS | GIT_DIFF_SHOW_UNTRACKED_CONTENT |
                  GIT_DIFF_SHOW_BINARY;
  Patch patch;
  WithholdingPayload payload{&withhold, &patch.withheld, unchanged_if, m_folder};
  if (withhold || unchanged_if != nullptr) {
    options.notify_cb = withhold_delta;
    options.payload = &payload;
  }
  git_diff* raw_diff = nullptr;
  const int made = with_index ? git_diff_tree_to_workdir_with_index(&raw_diff, m_repository.get(), tree, &options)
                              : git_diff_tree_to_workdir(&raw_diff, m_repository.get(), tree, &options);
  if (made != 0) return git_failure(failure);
  GitHandle<git_diff> diff(raw_diff);
  git_buf buffer = GIT_BUF_INIT;
  if (git_diff_to_buf(&buffer, diff.get(), GIT_DIFF_FORMAT_PATCH) != 0) return git_failure(failure);
  patch.text.assign(buffer.ptr, buffer.size);
  git_buf_dispose(&buffer);
  git_diff_stats* raw_stats = nullptr;
  if (git_diff_get_stats(&raw_stats, diff.get()) != 0) return git_failure(failure);
  GitHandle<git_diff_stats> stats(raw_stats);
  patch.files_changed = static_cast<int>(git_diff_stats_files_changed(stats.get()));
  patch.lines_added = static_cast<int>(git_diff_stats_insertions(stats.get()));
  patch.lines_removed = static_cast<int>(git_diff_stats_deletions(stats.get()));
  return patch;
}

}  // namespace agent_run
