#pragma once

#include <filesystem>
#include <string_view>

namespace agent_run {

/// Kills (SIGKILL) every process of this user, other than agent-run itself, whose current folder
/// lies inside `folder` or whose environment holds `marker` (`KEY=VALUE`): what a run's commands
/// left behind (daemons that escaped their process group, children of a killed agent-run).
/// Waits up to two seconds for them to end; returns how many it killed.
int kill_leftover_processes(const std::filesystem::path& folder, std::string_view marker);

}  // namespace agent_run
