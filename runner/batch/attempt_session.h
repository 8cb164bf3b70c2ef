#pragma once

#include "base/expected.h"
#include "policy/policy.h"
#include "report/run_report.h"
#include "task/task.h"
#include "tools/session_state.h"

namespace agent_run {

// The process and session tools' part of one attempt (run_attempt.cpp calls these).

/// The attempt's sandbox: the task's `sandbox:` when it has one, else its policy's, else none.
std::optional<SandboxSpec> attempt_sandbox(const Task& task, const Policy& policy);

/// An error when the task or its policy asks for a sandbox that bubblewrap cannot give on this
/// machine: such an attempt is an error (`sandbox.unavailable`), never run unsandboxed.
Expected<void> check_attempt_sandbox(const Task& task, const Policy& policy);

/// The session state the task's keys set (answers:, sandbox:, secrets:, web_search:), with the
/// policy's sandbox: when the task has none.
void prepare_session(const Task& task, const Policy& policy, SessionState& session);

/// Ends every process the attempt left running (background processes, escapes) and copies the
/// session tools' records (todos, questions, processes) into the result.
void finish_session(SessionState& session, AttemptResult& result);

/// Ends what the attempt's setup and check commands left running (`commands`, their table) and adds
/// the escapes it killed to the result's escaped_processes.
void finish_commands(ProcessTable& commands, AttemptResult& result);

}  // namespace agent_run
