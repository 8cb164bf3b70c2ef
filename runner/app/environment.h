#pragma once

#include <string>
#include <vector>

namespace agent_run {

/// The runner's environment as KEY=VALUE, without what looks like a secret (API keys, tokens,
/// passwords), for every command the agent, setup or checks run.
std::vector<std::string> scrubbed_environment(char** environ_entries);

/// Whether an environment variable's name looks like it holds a secret.
bool looks_secret(const std::string& name);

}  // namespace agent_run
