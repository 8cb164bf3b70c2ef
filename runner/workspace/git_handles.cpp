#include "workspace/git_handles.h"

#include <git2.h>

namespace agent_run {

void GitFree::operator()(git_commit* handle) const { git_commit_free(handle); }
void GitFree::operator()(git_diff* handle) const { git_diff_free(handle); }
void GitFree::operator()(git_diff_stats* handle) const { git_diff_stats_free(handle); }
void GitFree::operator()(git_index* handle) const { git_index_free(handle); }
void GitFree::operator()(git_object* handle) const { git_object_free(handle); }
void GitFree::operator()(git_reference* handle) const { git_reference_free(handle); }
void GitFree::operator()(git_repository* handle) const { git_repository_free(handle); }
void GitFree::operator()(git_signature* handle) const { git_signature_free(handle); }
void GitFree::operator()(git_tree* handle) const { git_tree_free(handle); }
void GitFree::operator()(git_worktree* handle) const { git_worktree_free(handle); }

void ensure_libgit2() {
  // A function-local static: initialized once, thread-safe, never shut down (the process ends first).
  static const bool initialized = [] {
    git_libgit2_init();
    git_libgit2_opts(GIT_OPT_SET_OWNER_VALIDATION, 0);
    // Like git, trust the object store instead of hashing every object read again (a worktree's
    // checkout reads every blob of the tree).
    git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
    return true;
  }();
  (void)initialized;
}

Error git_failure(const std::string& what) {
  const git_error* error = git_error_last();
  std::string reason = error && error->message ? error->message : "unknown libgit2 error";
  return make_error(what + ": " + reason);
}

std::mutex& git_bookkeeping_lock() {
  static std::mutex lock;
  return lock;
}

}  // namespace agent_run
