#pragma once

#include "agent/agent_loop.h"
#include "batch/run_attempt.h"

#include <filesystem>
#include <string>

namespace agent_run {

// The steps of one attempt that run commands and judge the outcome (run_attempt.cpp reads as
// their table of contents).

/// Sets the attempt's outcome, its machine-readable type and its message.
void set_outcome(AttemptResult& result, Outcome outcome, std::string type, std::string message);

/// Runs the task's setup commands in order; on the first failure marks the attempt an error
/// (`setup.failed`) and returns false.
bool run_setup(const Task& task, const std::filesystem::path& root, const AttemptSettings& settings,
               AttemptResult& result);

/// Decides the outcome from how the agent stopped and, when it finished, from the task's checks.
void judge(const Task& task, const AgentRun& run, const std::filesystem::path& root, const AttemptSettings& settings,
           AttemptResult& result);

}  // namespace agent_run
