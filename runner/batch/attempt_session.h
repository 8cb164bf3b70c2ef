#pragma once

#include "base/expected.h"
#include "report/run_report.h"
#include "task/task.h"
#include "tools/session_state.h"

namespace agent_run {

// The process and session tools' part of one attempt (run_attempt.cpp calls these).

/// An error when the task asks for a sandbox that bubblewrap cannot give on this machine: such a
/// task is an error (`sandbox.unavailable`), never run unsandboxed.
Expected<void> check_task_sandbox(const Task& task);

/// The session state the task's keys set: answers:, sandbox:, secrets:, web_search:.
void prepare_session(const Task& task, SessionState& session);

/// Ends every process the attempt left running (background processes, escapes) and copies the
/// session tools' records (todos, questions, processes) into the result.
void finish_session(SessionState& session, AttemptResult& result);

/// Ends what the attempt's setup and check commands left running (`commands`, their table) and adds
/// the escapes it killed to the result's escaped_processes.
void finish_commands(ProcessTable& commands, AttemptResult& result);

}  // namespace agent_run
