#include "batch/attempt_session.h"

#include "exec/sandbox.h"

namespace agent_run {

namespace {

BackgroundProcessRecord record_of(const BackgroundSummary& process) {
  BackgroundProcessRecord record;
  record.handle = process.handle;
  record.command = process.command;
  record.pid = process.pid;
  record.ended_by = to_string(process.ended_by);
  if (process.ending) {
    record.exit_code = process.ending->exit_code;
    record.signal = process.ending->signal;
    record.duration_ms = process.ending->duration_ms;
  }
  record.output_bytes = process.output_bytes;
  return record;
}

void add_escapes(const ProcessTableSummary& processes, AttemptResult& result) {
  for (const EscapedProcess& process : processes.escaped) {
    result.escaped_processes.push_back(EscapedProcessRecord{process.pid, process.command});
  }
}

}  // namespace

std::optional<SandboxSpec> attempt_sandbox(const Task& task, const Policy& policy) {
  return task.sandbox ? task.sandbox : policy.sandbox;
}

Expected<void> check_attempt_sandbox(const Task& task, const Policy& policy) {
  std::optional<SandboxSpec> sandbox = attempt_sandbox(task, policy);
  if (!sandbox) return {};
  return check_sandbox_works(*sandbox, task.sandbox ? "the task" : "the policy " + policy.source.string());
}

void prepare_session(const Task& task, const Policy& policy, SessionState& session) {
  session.answers = task.answers;
  session.sandbox = attempt_sandbox(task, policy);
  session.secrets = task.secrets;
  session.web.search_command = task.web_search;
}

void finish_session(SessionState& session, AttemptResult& result) {
  ProcessTableSummary processes = session.processes.stop_everything();
  for (const BackgroundSummary& process : processes.background) result.background_processes.push_back(record_of(process));
  add_escapes(processes, result);
  result.todos = session.todos;
  result.questions = session.questions;
  result.sandboxed = session.sandbox.has_value();
}

void finish_commands(ProcessTable& commands, AttemptResult& result) { add_escapes(commands.stop_everything(), result); }

}  // namespace agent_run
