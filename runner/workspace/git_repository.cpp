#include "workspace/git_repository.h"

#include "workspace/checkout_filters.h"
#include "workspace/small_files.h"

#include <git2.h>

#include <system_error>

namespace agent_run {

namespace {

std::string quoted(const std::filesystem::path& path) { return "'" + path.string() + "'"; }

std::string hex_id(const git_oid& id) {
  char buffer[GIT_OID_HEXSZ + 1];
  git_oid_tostr(buffer, sizeof buffer, &id);
  return buffer;
}

Expected<GitHandle<git_commit>> lookup_commit(git_repository* repository, const std::string& commit) {
  git_oid id;
  git_commit* raw = nullptr;
  if (git_oid_fromstr(&id, commit.c_str()) != 0 || git_commit_lookup(&raw, repository, &id) != 0) {
    return git_failure("cannot find the commit " + commit);
  }
  return GitHandle<git_commit>(raw);
}

Expected<GitHandle<git_reference>> lookup_branch(git_repository* repository, const std::string& branch) {
  git_reference* raw = nullptr;
  if (git_branch_lookup(&raw, repository, branch.c_str(), GIT_BRANCH_LOCAL) != 0) {
    return git_failure("cannot find the branch '" + branch + "'");
  }
  return GitHandle<git_reference>(raw);
}

/// The files that make `folder` a linked worktree of the repository whose common folder is
/// `common`, with `ref` as its HEAD: what git_worktree_add writes, written here because its check
/// that the branch is not checked out elsewhere reads every worktree's HEAD and fails while another
/// attempt is adding a worktree of the same repository.
Expected<void> write_worktree_links(const std::filesystem::path& bookkeeping, const std::filesystem::path& folder,
                                    const std::filesystem::path& common, const std::string& ref) {
  std::filesystem::path absolute = std::filesystem::absolute(folder).lexically_normal();
  AR_TRY(write_small_file(bookkeeping / "commondir", common.string() + "\n"));
  AR_TRY(write_small_file(bookkeeping / "gitdir", (absolute / ".git").string() + "\n"));
  AR_TRY(write_small_file(bookkeeping / "HEAD", "ref: " + ref + "\n"));
  return write_small_file(absolute / ".git", "gitdir: " + bookkeeping.string() + "\n");
}

/// Fills a new worktree with the files of its HEAD and writes its index.
Expected<void> check_out_head(const std::filesystem::path& folder) {
  git_repository* raw = nullptr;
  if (git_repository_open_ext(&raw, folder.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) != 0) {
    return git_failure("cannot open it");
  }
  GitHandle<git_repository> worktree(raw);
  git_checkout_options options = GIT_CHECKOUT_OPTIONS_INIT;
  options.checkout_strategy = GIT_CHECKOUT_FORCE;
  options.disable_filters = checkout_filters_are_no_ops(worktree.get()) ? 1 : 0;
  if (git_checkout_head(worktree.get(), &options) != 0) return git_failure("cannot check out its files");
  return {};
}

}  // namespace

Expected<GitRepository> GitRepository::open(const std::filesystem::path& folder) {
  ensure_libgit2();
  git_repository* raw = nullptr;
  if (git_repository_open_ext(&raw, folder.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) != 0) {
    return git_failure("cannot open the git repository " + quoted(folder));
  }
  return GitRepository(GitHandle<git_repository>(raw), folder);
}

Expected<GitRepository> GitRepository::init(const std::filesystem::path& folder) {
  ensure_libgit2();
  git_repository* raw = nullptr;
  if (git_repository_init(&raw, folder.c_str(), 0) != 0) {
    return git_failure("cannot make a git repository in " + quoted(folder));
  }
  return GitRepository(GitHandle<git_repository>(raw), folder);
}

Expected<std::string> GitRepository::resolve_commit(const std::string& ref) const {
  git_object* raw = nullptr;
  if (git_revparse_single(&raw, m_repository.get(), ref.c_str()) != 0) {
    return make_error("'" + ref + "' is not a commit, branch or tag in " + quoted(m_folder));
  }
  GitHandle<git_object> object(raw);
  git_object* peeled = nullptr;
  if (git_object_peel(&peeled, object.get(), GIT_OBJECT_COMMIT) != 0) {
    return make_error("'" + ref + "' does not name a commit in " + quoted(m_folder));
  }
  GitHandle<git_object> commit(peeled);
  return hex_id(*git_object_id(commit.get()));
}

Expected<std::string> GitRepository::head_commit() const {
  int unborn = git_repository_head_unborn(m_repository.get());
  if (unborn < 0) return git_failure("cannot read HEAD of " + quoted(m_folder));
  if (unborn == 1) return std::string();
  return resolve_commit("HEAD");
}

Expected<void> GitRepository::create_branch(const std::string& branch, const std::string& commit) {
  auto target = lookup_commit(m_repository.get(), commit);
  if (!target) return target.error();
  git_reference* raw = nullptr;
  std::lock_guard<std::mutex> guard(git_bookkeeping_lock());
  if (git_branch_create(&raw, m_repository.get(), branch.c_str(), target->get(), 0) != 0) {
    return git_failure("cannot create the branch '" + branch + "' in " + quoted(m_folder));
  }
  GitHandle<git_reference> created(raw);
  return {};
}

Expected<void> GitRepository::delete_branch(const std::string& branch) {
  auto reference = lookup_branch(m_repository.get(), branch);
  if (!reference) return reference.error();
  std::lock_guard<std::mutex> guard(git_bookkeeping_lock());
  // git_branch_delete's checks, then its last step: not git_branch_delete itself, whose removal of
  // the branch's config section leaks libgit2 1.5's PCRE2 match data on every config entry it reads
  // (about 140 KB an attempt: the soak's memory growth; libgit2/libgit2#6382, fixed in 1.6). The
  // branches agent-run deletes are its own, which have no config section.
  if (git_branch_is_head(reference->get()) != 0 || git_branch_is_checked_out(reference->get()) != 0) {
    return make_error("cannot delete the branch '" + branch + "' in " + quoted(m_folder) + ": it is checked out");
  }
  if (git_reference_delete(reference->get()) != 0) {
    return git_failure("cannot delete the branch '" + branch + "' in " + quoted(m_folder));
  }
  return {};
}

Expected<void> GitRepository::add_worktree(const std::string& name, const std::filesystem::path& folder,
                                           const std::string& branch) {
  auto reference = lookup_branch(m_repository.get(), branch);
  if (!reference) return reference.error();
  std::filesystem::path common = std::filesystem::path(git_repository_commondir(m_repository.get())).lexically_normal();
  std::filesystem::path bookkeeping = common / "worktrees" / name;
  std::error_code ec;
  Expected<void> added;
  {
    std::lock_guard<std::mutex> guard(git_bookkeeping_lock());
    std::filesystem::create_directories(common / "worktrees", ec);
    if (!std::filesystem::create_directory(bookkeeping, ec) || !std::filesystem::create_directory(folder, ec)) {
      if (!ec) std::filesystem::remove(bookkeeping, ec);
      return make_error("cannot add the worktree '" + name + "' in " + quoted(folder) + ": it exists");
    }
    added = write_worktree_links(bookkeeping, folder, common, git_reference_name(reference->get()));
  }
  if (added) added = check_out_head(folder);
  if (!added) {
    std::filesystem::remove_all(bookkeeping, ec);  // what the failed add left behind
    std::filesystem::remove_all(folder, ec);
    return make_error("cannot add a worktree of " + quoted(m_folder) + " in " + quoted(folder) + ": " +
                      added.error().message);
  }
  return {};
}

Expected<void> GitRepository::prune_worktree(const std::string& name) {
  git_worktree* raw = nullptr;
  if (git_worktree_lookup(&raw, m_repository.get(), name.c_str()) != 0) {
    return git_failure("cannot find the worktree '" + name + "' of " + quoted(m_folder));
  }
  GitHandle<git_worktree> worktree(raw);
  git_worktree_prune_options options = GIT_WORKTREE_PRUNE_OPTIONS_INIT;
  options.flags = GIT_WORKTREE_PRUNE_VALID | GIT_WORKTREE_PRUNE_WORKING_TREE;
  std::lock_guard<std::mutex> guard(git_bookkeeping_lock());
  if (git_worktree_prune(worktree.get(), &options) != 0) {
    return git_failure("cannot remove the worktree '" + name + "' of " + quoted(m_folder));
  }
  return {};
}

Expected<void> GitRepository::export_commit(const std::string& commit, const std::filesystem::path& folder) const {
  auto tree = tree_of(commit);
  if (!tree) return tree.error();
  std::string target = folder.string();
  git_checkout_options options = GIT_CHECKOUT_OPTIONS_INIT;
  // Without DONT_UPDATE_INDEX libgit2 rewrites this repository's index, losing staged work.
  options.checkout_strategy = GIT_CHECKOUT_FORCE | GIT_CHECKOUT_DONT_UPDATE_INDEX;
  options.target_directory = target.c_str();
  auto* object = reinterpret_cast<git_object*>(tree->get());
  if (git_checkout_tree(m_repository.get(), object, &options) != 0) {
    return git_failure("cannot write the files of " + quoted(m_folder) + " at " + commit + " to " + quoted(folder));
  }
  return {};
}

Expected<std::string> GitRepository::commit_everything(const std::string& message) {
  std::string failure = "cannot commit the files of " + quoted(m_folder);
  git_index* raw_index = nullptr;
  if (git_repository_index(&raw_index, m_repository.get()) != 0) return git_failure(failure);
  GitHandle<git_index> index(raw_index);
  git_oid tree_id;
  if (git_index_add_all(index.get(), nullptr, GIT_INDEX_ADD_DEFAULT, nullptr, nullptr) != 0 ||
      git_index_write(index.get()) != 0 || git_index_write_tree(&tree_id, index.get()) != 0) {
    return git_failure(failure);
  }
  git_tree* raw_tree = nullptr;
  git_signature* raw_signature = nullptr;
  if (git_tree_lookup(&raw_tree, m_repository.get(), &tree_id) != 0) return git_failure(failure);
  GitHandle<git_tree> tree(raw_tree);
  if (git_signature_now(&raw_signature, "agent-run", "agent-run@localhost") != 0) return git_failure(failure);
  GitHandle<git_signature> signature(raw_signature);
  git_oid commit_id;
  if (git_commit_create(&commit_id, m_repository.get(), "HEAD", signature.get(), signature.get(), nullptr,
                        message.c_str(), tree.get(), 0, nullptr) != 0) {
    return git_failure(failure);
  }
  return hex_id(commit_id);
}

namespace {

/// What diff_from's libgit2 callback needs: the filter and where to list what it left out.
struct WithholdingPayload {
  const PatchFilter* filter;
  std::vector<WithheldChange>* withheld;
};

/// libgit2's notify callback: 1 leaves the delta out of the diff.
int withhold_delta(const git_diff*, const git_diff_delta* delta, const char*, void* payload) {
  auto* withholding = static_cast<WithholdingPayload*>(payload);
  for (const char* path : {delta->new_file.path, delta->old_file.path}) {
    if (path == nullptr) continue;
    std::string why = (*withholding->filter)(path);
    if (why.empty()) continue;
    withholding->withheld->push_back(WithheldChange{path, std::move(why)});
    return 1;
  }
  return 0;
}

}  // namespace

Expected<Patch> GitRepository::diff_from(const std::string& commit, const PatchFilter& withhold) const {
  auto tree = tree_of(commit);
  if (!tree) return tree.error();
  std::string failure = "cannot compare " + quoted(m_folder) + " with its starting point";
  git_diff_options options = GIT_DIFF_OPTIONS_INIT;
  // SHOW_BINARY: binary files as `GIT binary patch` literals, so that the patch applies (git apply,
  // commit_patch) instead of saying "Binary files differ".
  options.flags = GIT_DIFF_INCLUDE_UNTRACKED | GIT_DIFF_RECURSE_UNTRACKED_DIRS | GIT_DIFF_SHOW_UNTRACKED_CONTENT |
                  GIT_DIFF_SHOW_BINARY;
  Patch patch;
  WithholdingPayload payload{&withhold, &patch.withheld};
  if (withhold) {
    options.notify_cb = withhold_delta;
    options.payload = &payload;
  }
  git_diff* raw_diff = nullptr;
  if (git_diff_tree_to_workdir_with_index(&raw_diff, m_repository.get(), tree->get(), &options) != 0) {
    return git_failure(failure);
  }
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

Expected<GitHandle<git_tree>> GitRepository::tree_of(const std::string& commit) const {
  if (commit.empty()) return GitHandle<git_tree>();
  auto found = lookup_commit(m_repository.get(), commit);
  if (!found) return found.error();
  git_tree* raw = nullptr;
  if (git_commit_tree(&raw, found->get()) != 0) return git_failure("cannot read the tree of " + commit);
  return GitHandle<git_tree>(raw);
}

}  // namespace agent_run
