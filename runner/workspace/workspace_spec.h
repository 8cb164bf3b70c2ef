#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace agent_run {

/// How an attempt's workspace is made from the task's repository.
enum class Isolation {
  worktree,  // a git worktree at `ref` (the default for a git repository)
  copy,      // a copy of the folder (the default for a plain folder)
  in_place,  // the folder itself: a CI step working on its own checkout
};

/// Where the agent works (the task file's `workspace:` key).
struct WorkspaceSpec {
  std::filesystem::path repo;          // absolute; default: the git repository holding the task file
  std::string ref = "HEAD";            // commit, branch or tag to start from (worktree and copy of a repository)
  std::optional<Isolation> isolation;  // nullopt: worktree for a git repository, else copy
};

}  // namespace agent_run
