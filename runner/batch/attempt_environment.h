#pragma once

#include "batch/run_attempt.h"
#include "task/task.h"

#include <string>
#include <vector>

namespace agent_run {

// The environments of one attempt's children. A task's `secrets:` reach setup and the checks only;
// its `env:` reaches the agent's commands too, but for the names listed under `secrets:`.

/// For the agent's commands and everything that runs on its behalf (bash, background processes,
/// web_search, language servers): the run's environment (already without what looks secret)
/// without the task's secrets, plus the task's `env:` that is not secret.
std::vector<std::string> agent_environment(const Task& task, const std::vector<std::string>& run_environment);

/// For setup and the checks: the run's environment, the task's secrets (their values in agent-run's
/// environment) and its whole `env:` (which wins over both).
std::vector<std::string> command_environment(const Task& task, const AttemptSettings& settings);

/// Every value the attempt must never show the model or put in a transcript or report: its
/// secrets' values, from agent-run's environment and from `env:`.
std::vector<std::string> secret_values_of(const Task& task, const AttemptSettings& settings);

}  // namespace agent_run
