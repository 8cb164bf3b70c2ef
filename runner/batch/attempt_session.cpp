#include "batch/attempt_session.h"

#include "exec/child_environment.h"
#include "exec/sandbox.h"
#include "policy/scope_context.h"

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

ToolScope make_tool_scope(const Task& task, const Policy& policy, const std::filesystem::path& workspace,
                          const AttemptSettings& settings) {
  ToolScope scope;
  scope.workspace = workspace;
  if (!policy.source.empty()) scope.protected_paths.push_back(policy.source);  // the runner's own files
  if (!task.source.empty()) scope.protected_paths.push_back(task.source);
  if (settings.reports) scope.protected_paths.push_back(settings.reports->root());
  // The agent's commands, web_search and the per-edit checks: never the task's secrets.
  scope.environment =
      child_environment({settings.environment, task.secrets, TaskSecrets::withheld, ChildPlace::runner});
  scope.secrets = task.secrets;
  scope.cancellation = settings.cancellation;
  scope.sandbox = attempt_sandbox(task, policy);
  scope.grep_backend = settings.grep_backend;
  if (task.diagnostics) scope.diagnostics = settings.diagnostics;
  scope.answers = task.answers;
  scope.web.search_command = task.web_search;
  bind_policy(policy, scope);  // what the tools keep to as they run: hidden paths, each web_fetch redirect
  return scope;
}

void finish_session(const ToolScope& scope, SessionState& session, AttemptResult& result) {
  ProcessTableSummary processes = session.processes.stop_everything();
  for (const BackgroundSummary& process : processes.background)
    result.background_processes.push_back(record_of(process));
  add_escapes(processes, result);
  result.todos = session.todos;
  result.questions = session.questions;
  result.sandboxed = scope.sandbox.has_value();
}

void finish_commands(ProcessTable& commands, AttemptResult& result) { add_escapes(commands.stop_everything(), result); }

}  // namespace agent_run
