#pragma once

#include <filesystem>
#include <string_view>

namespace agent_run {

/// Which processes count as left behind by a run.
enum class LeftoverMatch {
  marker,            // those whose environment holds the run's marker: everything its commands started
  marker_or_folder,  // also those working inside its folder (a dead run's; a person's shell could be in a live one's)
};

/// Kills (SIGKILL) every process of this user, other than agent-run itself, whose environment
/// holds `marker` (`KEY=VALUE`) or, with LeftoverMatch::marker_or_folder, whose current folder lies
/// inside `folder`: what a run's commands left behind (daemons that escaped their process group,
/// children of a killed agent-run). Waits up to two seconds for them to end; returns how many.
int kill_leftover_processes(const std::filesystem::path& folder, std::string_view marker, LeftoverMatch match);

}  // namespace agent_run
