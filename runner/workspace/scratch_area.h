#pragma once

#include "base/expected.h"
#include "workspace/workspace.h"

#include <filesystem>
#include <string>
#include <vector>

namespace agent_run {

/// The file in each workspace's holder folder that says what to undo if its run dies: the source
/// repository, the isolation and the label naming its worktree and branch.
inline constexpr const char* k_workspace_manifest = ".agent-run-workspace.json";

/// The folder one run makes its workspaces in (`<parent>/run-XXXXXX`), locked with flock for as
/// long as the run lives, so that a later run can tell a live run's folder from a killed one's.
class ScratchArea {
 public:
  /// Makes a fresh run folder under `parent` and takes its lock.
  static Expected<ScratchArea> claim(const std::filesystem::path& parent);
  ScratchArea(ScratchArea&& other) noexcept;
  ScratchArea& operator=(ScratchArea&&) = delete;
  ~ScratchArea();

  const std::filesystem::path& path() const { return m_path; }
  /// `AGENT_RUN_SCRATCH=<path>`: put in the environment of every command the run starts, so that
  /// if the run dies, the next one finds what they left behind wherever it went (clean_stale_runs).
  /// While the run lives, each attempt's process tables end its commands' leftovers.
  std::string environment_marker() const;
  /// Ends the run's use of the folder: removes it; with KeepWorkspace::yes keeps it and drops the
  /// lock file, so that no later run cleans it.
  Expected<void> close(KeepWorkspace keep);

 private:
  ScratchArea(std::filesystem::path path, int lock_fd) : m_path(std::move(path)), m_lock_fd(lock_fd) {}

  std::filesystem::path m_path;
  int m_lock_fd = -1;
};

/// What cleaning up after killed runs did, for a line in the log.
struct StaleCleanup {
  int runs = 0;        // run folders removed
  int workspaces = 0;  // workspaces undone (worktrees pruned, branches deleted, folders removed)
  int processes = 0;   // leftover processes killed
  std::vector<std::string> problems;
};

/// Cleans up after runs that died without doing so (agent-run killed with SIGKILL, a power cut):
/// for each run folder under `parent` whose lock is free, kills the processes still working there,
/// prunes its worktrees and deletes their agent-run/ branches in the source repositories, and
/// removes the folder. Live runs' folders (lock held) and kept ones (no lock file) are left alone.
StaleCleanup clean_stale_runs(const std::filesystem::path& parent);

/// Prunes the linked worktrees named agent-run-* of `repository` whose folder is gone (a scratch
/// folder wiped by a reboot) and older than a minute, and deletes their agent-run/ branches.
StaleCleanup prune_orphaned_worktrees(const std::filesystem::path& repository);

}  // namespace agent_run
