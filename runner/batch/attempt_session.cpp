#include "batch/attempt_session.h"

#include "batch/attempt_environment.h"
#include "exec/sandbox.h"
#include "policy/scope_context.h"

#include <algorithm>
#include <utility>

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

SandboxSpec attempt_sandbox(const Task& task, const Policy& policy, const std::optional<SandboxSpec>& flag) {
  SandboxSpec spec = flag ? *flag : task.sandbox ? *task.sandbox : policy.sandbox ? *policy.sandbox : SandboxSpec{};
  // The folders a task and its policy show add up, whoever decided the rest.
  for (const std::optional<SandboxSpec>* named : {&policy.sandbox, &task.sandbox}) {
    if (!*named) continue;
    for (const auto [from, into] : {std::pair{&(*named)->read, &spec.read}, std::pair{&(*named)->read_write, &spec.read_write}}) {
      for (const std::string& folder : *from) {
        if (std::find(into->begin(), into->end(), folder) == into->end()) into->push_back(folder);
      }
    }
  }
  return spec;
}

std::vector<std::filesystem::path> attempt_protected_paths(const Task& task, const Policy& policy,
                                                           const AttemptSettings& settings) {
  std::vector<std::filesystem::path> paths;
  if (!policy.source.empty()) paths.push_back(policy.source);  // the runner's own files
  if (!task.source.empty()) paths.push_back(task.source);
  if (settings.reports) paths.push_back(settings.reports->root());
  return paths;
}

ToolScope make_tool_scope(const Task& task, const Policy& policy, const std::filesystem::path& workspace,
                          const AttemptSettings& settings, const AttemptSandbox* sandbox, const Survey* survey) {
  ToolScope scope;
  scope.workspace = workspace;
  scope.protected_paths = attempt_protected_paths(task, policy, settings);
  scope.environment = tool_environment(task, settings);
  scope.secrets = task.secrets;
  scope.cancellation = settings.cancellation;
  scope.sandbox = sandbox;
  scope.survey = survey;
  scope.grep_backend = settings.grep_backend;
  if (task.diagnostics) scope.diagnostics = settings.diagnostics;
  scope.answers = task.answers;
  scope.web.search_command = task.web_search;
  bind_policy(policy, scope);  // what the tools keep to as they run: hidden paths, each web_fetch redirect
  return scope;
}

void finish_session(SessionState& session, AttemptResult& result) {
  ProcessTableSummary processes = session.processes.stop_everything();
  for (const BackgroundSummary& process : processes.background)
    result.background_processes.push_back(record_of(process));
  add_escapes(processes, result);
  result.todos = session.todos;
  result.questions = session.questions;
}

void finish_commands(ProcessTable& commands, AttemptResult& result) { add_escapes(commands.stop_everything(), result); }

}  // namespace agent_run
