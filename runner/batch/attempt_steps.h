#pragma once

#include "agent/agent_loop.h"
#include "batch/project_gate.h"
#include "batch/run_attempt.h"
#include "exec/attempt_sandbox.h"
#include "exec/process_table.h"
#include "workspace/workspace.h"

#include <filesystem>
#include <string>

namespace agent_run {

// The steps of one attempt that run commands and judge the outcome (run_attempt.cpp reads as
// their table of contents).

/// Sets the attempt's outcome type, the outcome that type has (report/outcome.h) and its message.
void set_outcome(AttemptResult& result, OutcomeType type, std::string message);

/// Runs one setup or check command in the workspace through `commands` (inside `sandbox` unless it is
/// nullptr), with the task's env: and secrets, its output tail redacted of the secrets' values.
CheckRecord run_command(const std::string& command, const std::filesystem::path& root, const Task& task,
                        const AttemptSettings& settings, ProcessTable& commands, const AttemptSandbox* sandbox);

/// Runs the task's setup commands in order, through `commands` (the attempt's table for setup and
/// checks, so what they leave running is killed when the attempt ends); on the first failure marks
/// the attempt an error (`setup.failed`) and returns false.
bool run_setup(const Task& task, const std::filesystem::path& root, const AttemptSettings& settings,
               ProcessTable& commands, AttemptResult& result);

/// Whether the agent finished on its own (no limit, no error), so that the task's checks judge it.
bool agent_finished(const AttemptResult& result);

/// Runs the task's checks in the workspace, in order, through `commands` (inside `sandbox` unless
/// it is nullptr; their output redacted of the task's secrets); `no_new_diagnostics: project`
/// compares the project with its baseline in `gates`; `no_new_diagnostics: true` judges `edits`,
/// with the files they left a problem in checked again on the final tree (final_tree_recheck) and
/// the files a project gate reads judged by its findings (the project gates run first).
std::vector<CheckRecord> run_checks(const Task& task, const std::vector<EditRecord>& edits, const Workspace& workspace,
                                    const AttemptSettings& settings, ProcessTable& commands,
                                    const AttemptSandbox* sandbox, const GateBaselines& gates);

/// Decides the outcome from how the agent stopped (the result's stop_reason, explained by `run`)
/// and, when it finished, from the task's checks: the last round's when check_feedback already ran
/// them with the agent, else run now through `commands`, inside `sandbox` unless it is nullptr.
void judge(const Task& task, const AgentRun& run, const Workspace& workspace, const AttemptSettings& settings,
           ProcessTable& commands, const AttemptSandbox* sandbox, const GateBaselines& gates, AttemptResult& result);

}  // namespace agent_run
