#pragma once

#include <filesystem>
#include <string_view>

namespace agent_run {

/// Kills (SIGKILL) every process of this user, other than agent-run itself, whose environment
/// holds `marker` (`KEY=VALUE`) or whose current folder lies inside `folder`: what the commands of a
/// run that died (SIGKILL, a power cut) left behind, daemons that escaped their process group and
/// children of the killed agent-run included. While a run lives, each attempt's process tables
/// (exec/process_table.h) end what its commands start; this is only for a dead run's folder.
/// Waits up to two seconds for them to end; returns how many it killed.
int kill_leftover_processes(const std::filesystem::path& folder, std::string_view marker);

}  // namespace agent_run
