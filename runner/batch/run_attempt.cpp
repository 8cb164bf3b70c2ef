#include "batch/run_attempt.h"

#include "agent/agent_loop.h"
#include "agent/transcript_recorder.h"
#include "base/cancellation.h"
#include "base/files.h"
#include "batch/attempt_session.h"
#include "batch/attempt_steps.h"
#include "workspace/repository_discovery.h"

#include <csignal>

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

bool interrupted(const AttemptSettings& settings) { return settings.cancellation && settings.cancellation->cancelled(); }

/// Ends the attempt as interrupted: an error, since nobody could judge it; --resume runs it again.
void mark_interrupted(const AttemptSettings& settings, const std::string& during, AttemptResult& result) {
  int signal = settings.cancellation->signal();
  std::string by = signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "a stop request";
  set_outcome(result, OutcomeType::interrupted,
              "interrupted by " + by + " during " + during + "; agent-run --resume runs it again");
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
                   ModelClient& model, AttemptResult& result, ProgressReporter& reporter) {
  result.transcript_path = plan.folder + "/transcript.jsonl";
  TranscriptRecorder transcript(settings.reports->root() / result.transcript_path);
  ToolRegistry tools = make_tool_registry(plan.task->tools);
  const ToolScope scope = make_tool_scope(*plan.task, *plan.policy, workspace.root(), settings);
  SessionState session;
  session.status.context_window = model.context_window();  // from the price table; script: unknown

  AgentLoop loop(model, tools, *plan.policy, *settings.clock, {&transcript, &reporter});
  AgentRun run = loop.run(plan.task->prompt, plan.task->limits, scope, session, result);
  finish_session(scope, session, result);
  result.durations.model_ms = run.model_ms;
  result.durations.tools_ms = run.tools_ms;
  return run;
}

void save_patch(const AttemptPlan& plan, const Workspace& workspace, const AttemptSettings& settings,
                AttemptResult& result) {
  auto patch = workspace.diff();
  if (!patch) {
    result.message += result.message.empty() ? "" : "; ";
    result.message += "could not compute the patch: " + patch.error().message;
    return;
  }
  result.patch = PatchStats{patch->files_changed, patch->lines_added, patch->lines_removed};
  result.patch_path = plan.folder + "/patch.diff";
  (void)write_file_atomically(settings.reports->root() / result.patch_path, patch->text);
}

/// Commits a passed attempt's changes to the task's `commit:` branch; a failure makes it an error.
void commit_result(const AttemptPlan& plan, const Workspace& workspace, AttemptResult& result) {
  std::optional<CommitSpec> commit = commit_for(plan);
  if (!commit || result.outcome != Outcome::passed || result.patch.files_changed == 0) return;
  auto sha = workspace.commit(commit->branch, commit->message);
  if (!sha) {
    set_outcome(result, OutcomeType::commit_failed, sha.error().message);
    return;
  }
  result.commit = CommitRecord{commit->branch, *sha};
}

/// Setup, the agent and the checks; false when the attempt ended before the agent ran.
bool run_steps(const AttemptPlan& plan, const AttemptSettings& settings, Workspace& workspace,
               ProcessTable& commands, AttemptResult& result, ProgressReporter& reporter) {
  reporter.phase("setup");
  if (auto sandbox = check_attempt_sandbox(*plan.task, *plan.policy); !sandbox) {
    set_outcome(result, OutcomeType::sandbox_unavailable, sandbox.error().message);
    return false;
  }
  bool set_up = run_setup(*plan.task, workspace.root(), settings, commands, result);
  if (interrupted(settings)) {
    mark_interrupted(settings, "setup", result);
    return false;
  }
  if (!set_up) return false;
  auto model = settings.make_model(*plan.task, plan.model);
  if (!model) {
    set_outcome(result, OutcomeType::model_unavailable, model.error().message);
    return false;
  }
  reporter.phase("agent");
  AgentRun run = run_agent(plan, settings, workspace, **model, result, reporter);
  if (interrupted(settings)) {
    mark_interrupted(settings, "the agent loop", result);
    return true;
  }
  reporter.phase("checks");
  judge(*plan.task, run, workspace.root(), settings, commands, result);
  if (interrupted(settings)) mark_interrupted(settings, "the checks", result);
  return true;
}

void run_in_workspace(const AttemptPlan& plan, const AttemptSettings& settings, Workspace& workspace,
                      AttemptResult& result, ProgressReporter& reporter) {
  ProcessTable commands;  // setup and checks: what they leave running lives until the attempt ends
  bool agent_ran = run_steps(plan, settings, workspace, commands, result, reporter);
  finish_commands(commands, result);
  if (!agent_ran) return;
  reporter.phase("patch");
  save_patch(plan, workspace, settings, result);
  reporter.phase("commit");
  commit_result(plan, workspace, result);
}

}  // namespace

AttemptResult run_attempt(const AttemptPlan& plan, const AttemptSettings& settings, const ProgressSink& progress) {
  const Clock::SteadyTime started = settings.clock->now();
  AttemptResult result = start_result(plan, settings);
  ProgressReporter reporter(progress);
  std::error_code ec;
  std::filesystem::remove_all(settings.reports->root() / plan.folder, ec);  // what an interrupted try left
  reporter.phase("workspace");
  auto workspace = prepare_workspace(*plan.task, settings);
  result.durations.workspace_ms = elapsed_ms(started, settings.clock->now());
  if (!workspace) {
    set_outcome(result, OutcomeType::workspace_failed, workspace.error().message);
  } else {
    run_in_workspace(plan, settings, **workspace, result, reporter);
    reporter.phase("cleanup");
    const Clock::SteadyTime cleanup_started = settings.clock->now();
    if (settings.diagnostics) settings.diagnostics->release_workspace((*workspace)->root());
    auto finished = (*workspace)->finish(settings.keep);
    result.durations.cleanup_ms = elapsed_ms(cleanup_started, settings.clock->now());
    if (!finished && result.outcome == Outcome::passed) {
      set_outcome(result, OutcomeType::workspace_cleanup_failed, finished.error().message);
    }
  }
  if (interrupted(settings) && result.outcome == Outcome::error && result.outcome_type != OutcomeType::interrupted) {
    mark_interrupted(settings, "its preparation", result);  // a workspace or model that failed because of it
  }
  result.durations.total_ms = elapsed_ms(started, settings.clock->now());
  return result;
}

}  // namespace agent_run
