#pragma once

#include "base/expected.h"
#include "batch/run_attempt.h"
#include "policy/policy.h"
#include "report/run_report.h"
#include "task/task.h"
#include "tools/session_state.h"
#include "tools/tool.h"

#include <filesystem>

namespace agent_run {

// The process and session tools' part of one attempt (run_attempt.cpp calls these).

/// The attempt's sandbox: the task's `sandbox:` when it has one, else its policy's, else none.
std::optional<SandboxSpec> attempt_sandbox(const Task& task, const Policy& policy);

/// An error when the task or its policy asks for a sandbox that bubblewrap cannot give on this
/// machine: such an attempt is an error (`sandbox.unavailable`), never run unsandboxed.
Expected<void> check_attempt_sandbox(const Task& task, const Policy& policy);

/// What the tools of one attempt in `workspace` may read, built the one way a run and `agent-run
/// tool` both use: the run's environment, stop request, grep backend and diagnostics (none when the
/// task turns them off); the task's keys (answers:, secrets:, web_search:, and sandbox: over the
/// policy's); and the paths never written: the policy file, the task file and the report folder.
ToolScope make_tool_scope(const Task& task, const Policy& policy, const std::filesystem::path& workspace,
                          const AttemptSettings& settings);

/// Ends every process the attempt left running (background processes, escapes) and copies the
/// session tools' records (todos, questions, processes, whether it was sandboxed) into the result.
void finish_session(const ToolScope& scope, SessionState& session, AttemptResult& result);

/// Ends what the attempt's setup and check commands left running (`commands`, their table) and adds
/// the escapes it killed to the result's escaped_processes.
void finish_commands(ProcessTable& commands, AttemptResult& result);

}  // namespace agent_run
