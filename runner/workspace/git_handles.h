#pragma once

#include "base/expected.h"

#include <memory>
#include <mutex>
#include <string>

// libgit2's handle types, declared here so that only the git_*.cpp files include <git2.h>.
struct git_commit;
struct git_diff;
struct git_diff_stats;
struct git_index;
struct git_object;
struct git_reference;
struct git_repository;
struct git_signature;
struct git_tree;
struct git_worktree;

namespace agent_run {

/// Frees a libgit2 handle with the library's own free function.
struct GitFree {
  void operator()(git_commit* handle) const;
  void operator()(git_diff* handle) const;
  void operator()(git_diff_stats* handle) const;
  void operator()(git_index* handle) const;
  void operator()(git_object* handle) const;
  void operator()(git_reference* handle) const;
  void operator()(git_repository* handle) const;
  void operator()(git_signature* handle) const;
  void operator()(git_tree* handle) const;
  void operator()(git_worktree* handle) const;
};

/// An owned libgit2 handle.
template <typename T>
using GitHandle = std::unique_ptr<T, GitFree>;

/// Initializes libgit2 once per process and turns off its repository ownership check (a CI
/// checkout is often owned by another user; the check fails with a misleading message) and, as
/// git does, the rehashing of every object it reads.
void ensure_libgit2();

/// Serialises, within this process, the libgit2 calls that add or prune worktrees and create or
/// delete branches. Deleting a branch (and forcing one over an existing branch) reads every
/// worktree's HEAD to refuse a branch checked out elsewhere; a worktree another thread is adding or
/// pruning at that moment makes it fail with "... is the current HEAD of a linked repository"
/// (seen with six threads making and removing worktrees of one repository). Checking out a new
/// worktree's files, the slow part, is not under it.
std::mutex& git_bookkeeping_lock();

/// An Error reading "<what>: <libgit2's last error message>".
Error git_failure(const std::string& what);

}  // namespace agent_run
