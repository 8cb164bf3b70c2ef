#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace agent_run {

/// The runner's environment as KEY=VALUE, without the variables whose names look secret
/// (exec/child_environment's looks_secret: API keys, tokens, passwords): what agent-run hands on.
/// Each child's environment is then built from it by child_environment.
std::vector<std::string> scrubbed_environment(char** environ_entries);

/// The values of `names` in the runner's environment (those set): the tasks' `secrets:`, which
/// setup and the checks get and nothing else does.
std::map<std::string, std::string> secret_values(char** environ_entries, const std::vector<std::string>& names);

/// Where the project gate keeps its baselines (batch/baseline_cache): `$AGENT_RUN_CACHE`, else
/// `$XDG_CACHE_HOME/agent-run`, else `$HOME/.cache/agent-run`, then `project-gate/`; empty (kept
/// for the run only) when none of them is set.
std::filesystem::path baseline_cache_folder(const std::vector<std::string>& environment);

}  // namespace agent_run
