#pragma once

#include "base/expected.h"
#include "batch/attempt_environment.h"
#include "batch/run_attempt.h"
#include "policy/policy.h"
#include "report/run_report.h"
#include "task/task.h"
#include "tools/session_state.h"
#include "tools/tool.h"

#include <filesystem>

namespace agent_run {

// The process and session tools' part of one attempt (run_attempt.cpp calls these).

/// The attempt's sandbox: --sandbox when given, else the task's `sandbox:`, else its policy's, else the
/// default (bubblewrap, network off, writes to the workspace); its `read` and `read_write` folders are
/// those of the policy and the task together.
SandboxSpec attempt_sandbox(const Task& task, const Policy& policy, const std::optional<SandboxSpec>& flag);

/// The paths an attempt never writes, whatever the policy says: its policy file, its task file and
/// the run's report folder (those that exist).
std::vector<std::filesystem::path> attempt_protected_paths(const Task& task, const Policy& policy,
                                                           const AttemptSettings& settings);

/// What the tools of one attempt in `workspace` may read, built the one way a run and `agent-run
/// tool` both use: the run's environment, stop request, grep backend and diagnostics (none when the
/// task turns them off); the task's keys (answers:, secrets:, web_search:); the attempt's sandbox
/// (nullptr: commands run unsandboxed); and the paths never written: the policy file, the task file
/// and the report folder. `survey` (nullptr: none) is what the sandbox was laid out from: with it the
/// policy lets recursive readers into folders whose hidden files the sandbox masks.
ToolScope make_tool_scope(const Task& task, const Policy& policy, const std::filesystem::path& workspace,
                          const AttemptSettings& settings, const AttemptSandbox* sandbox, const Survey* survey);

/// Ends every process the attempt left running (background processes, escapes) and copies the
/// session tools' records (todos, questions, processes) into the result.
void finish_session(SessionState& session, AttemptResult& result);

/// Ends what the attempt's setup and check commands left running (`commands`, their table) and adds
/// the escapes it killed to the result's escaped_processes.
void finish_commands(ProcessTable& commands, AttemptResult& result);

}  // namespace agent_run
