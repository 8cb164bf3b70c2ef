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

/// The names the task's `env:` sets: what exec/child_environment's allow list keeps besides its own.
std::vector<std::string> env_names(const Task& task);

/// The environment of the agent's commands, web_search and the per-edit checks (before the sandbox
/// makes it its own): the allow list of exec/child_environment over the run's environment, plus the
/// task's env:, never its secrets.
std::vector<std::string> tool_environment(const Task& task, const AttemptSettings& settings);

/// The names of agent-run's environment (the whole of it, what app/'s first scrub dropped too) that
/// the agent's commands do not get, sorted: the report's `environment.dropped`.
std::vector<std::string> dropped_names(const Task& task, const AttemptSettings& settings);

/// Every value the attempt must never show the model or put in a transcript or report: its
/// secrets' values, from agent-run's environment and from `env:`; and the value of each variable of
/// agent-run's environment that looks secret (base/environment_names' looks_secret) and that the
/// agent's commands do not get, when it has 8 characters or more (a shorter one would blank out
/// ordinary words: XDG_SESSION_CLASS=user).
std::vector<std::string> secret_values_of(const Task& task, const AttemptSettings& settings);

}  // namespace agent_run
