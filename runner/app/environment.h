#pragma once

#include <string>
#include <vector>

namespace agent_run {

/// The runner's environment as KEY=VALUE, without the variables whose names look secret
/// (exec/child_environment's looks_secret: API keys, tokens, passwords): what agent-run hands on.
/// Each child's environment is then built from it by child_environment.
std::vector<std::string> scrubbed_environment(char** environ_entries);

}  // namespace agent_run
