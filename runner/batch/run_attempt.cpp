#include "batch/run_attempt.h"

#include "agent/agent_loop.h"
#include "batch/attempt_session.h"
#include "base/files.h"
#include "batch/attempt_steps.h"
#include "report/transcript_writer.h"
#include "workspace/repository_discovery.h"

namespace agent_run {

namespace {

AttemptResult start_result(const AttemptPlan& plan, const AttemptSettings& settings) {
  AttemptResult result;
  result.task_id = plan.task->id;
  result.task_file = plan.task->source.string();
  result.task_sha256 = plan.task->source_sha256;
  result.policy_file = plan.policy->source.string();
  result.policy_sha256 = plan.policy->sha256;
  result.model = plan.model;
  result.repeat_index = plan.repeat_index;
  result.started_at = format_utc(settings.clock->wall_now());
  result.usage = Usage::zero();
  return result;
}

Expected<std::unique_ptr<Workspace>> prepare_workspace(const Task& task, const AttemptSettings& settings) {
  WorkspaceSpec spec = task.workspace;
  if (spec.repo.empty()) {
    auto repository = find_enclosing_repository(task.source);
    if (!repository) {
      return make_error(task.source.string() + ": no git repository holds this task file; set workspace.repo");
    }
    spec.repo = *repository;
  }
  return Workspace::prepare(spec, settings.scratch_folder, task.id);
}

/// Runs the agent in `workspace` and copies what it did into `result`; returns how it stopped.
AgentRun run_agent(const AttemptPlan& plan, const AttemptSettings& settings, const Workspace& workspace,
                   ModelClient& model, AttemptResult& result) {
  const std::string folder = ReportFolder::attempt_folder(plan.task->id, plan.repeat_index);
  result.transcript_path = folder + "/transcript.jsonl";
  TranscriptWriter transcript(settings.reports->root() / result.transcript_path);
  ToolRegistry tools = make_tool_registry(plan.task->tools);
  ToolContext context;
  context.workspace = workspace.root();
  context.environment = settings.environment;
  prepare_session(*plan.task, context.session);
  context.grep_backend = settings.grep_backend;
  if (plan.task->diagnostics) context.diagnostics = settings.diagnostics;
  if (!plan.policy->source.empty()) {
    context.protected_paths.push_back(plan.policy->source);
  }
  context.protected_paths.push_back(plan.task->source);            // the runner's own files: the task
  context.protected_paths.push_back(settings.reports->root());     // and the report folder

  AgentLoop loop(model, tools, *plan.policy, *settings.clock, &transcript);
  AgentRun run = loop.run(plan.task->prompt, plan.task->limits, context);
  finish_session(context.session, result);
  result.turns = run.turns;
  result.stop_reason = run.stop;
  result.tool_calls = run.tool_calls;
  result.edits = run.edits;
  result.usage = run.usage;
  result.durations.model_ms = run.model_ms;
  result.durations.tools_ms = run.tools_ms;
  result.model_calls = run.model_calls;
  result.warnings = run.warnings;
  return run;
}

void save_patch(const Workspace& workspace, const AttemptSettings& settings, AttemptResult& result) {
  auto patch = workspace.diff();
  if (!patch) {
    result.message += result.message.empty() ? "" : "; ";
    result.message += "could not compute the patch: " + patch.error().message;
    return;
  }
  result.patch = PatchStats{patch->files_changed, patch->lines_added, patch->lines_removed};
  result.patch_path = ReportFolder::attempt_folder(result.task_id, result.repeat_index) + "/patch.diff";
  (void)write_file_atomically(settings.reports->root() / result.patch_path, patch->text);
}

void run_in_workspace(const AttemptPlan& plan, const AttemptSettings& settings, Workspace& workspace,
                      AttemptResult& result) {
  if (auto sandbox = check_task_sandbox(*plan.task); !sandbox) {
    set_outcome(result, Outcome::error, "sandbox.unavailable", sandbox.error().message);
    return;
  }
  if (!run_setup(*plan.task, workspace.root(), settings, result)) {
    return;
  }
  auto model = settings.make_model(*plan.task, plan.model);
  if (!model) {
    set_outcome(result, Outcome::error, "model.unavailable", model.error().message);
    return;
  }
  AgentRun run = run_agent(plan, settings, workspace, **model, result);
  judge(*plan.task, run, workspace.root(), settings, result);
  save_patch(workspace, settings, result);
}

}  // namespace

AttemptResult run_attempt(const AttemptPlan& plan, const AttemptSettings& settings) {
  const Clock::SteadyTime started = settings.clock->now();
  AttemptResult result = start_result(plan, settings);
  auto workspace = prepare_workspace(*plan.task, settings);
  if (!workspace) {
    set_outcome(result, Outcome::error, "workspace.failed", workspace.error().message);
  } else {
    run_in_workspace(plan, settings, **workspace, result);
    if (settings.diagnostics) settings.diagnostics->release_workspace((*workspace)->root());
    auto finished = (*workspace)->finish(settings.keep);
    if (!finished && result.outcome == Outcome::passed) {
      set_outcome(result, Outcome::error, "workspace.cleanup_failed", finished.error().message);
    }
  }
  result.durations.total_ms = elapsed_ms(started, settings.clock->now());
  return result;
}

}  // namespace agent_run
