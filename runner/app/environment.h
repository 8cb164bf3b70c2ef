#pragma once

#include <map>
#include <string>
#include <vector>

namespace agent_run {

/// The runner's environment as KEY=VALUE, without what looks like a secret (API keys, tokens,
/// passwords; base/environment_names), for every command the agent, setup or checks run.
std::vector<std::string> scrubbed_environment(char** environ_entries);

/// The values of `names` in the runner's environment (those set): the tasks' `secrets:`, which
/// setup and the checks get and nothing else does.
std::map<std::string, std::string> secret_values(char** environ_entries, const std::vector<std::string>& names);

}  // namespace agent_run
