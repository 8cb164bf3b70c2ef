#include "batch/run_attempt.h"

#include "agent/agent_loop.h"
#include "agent/transcript_recorder.h"
#include "base/cancellation.h"
#include "base/files.h"
#include "batch/attempt_mcp.h"
#include "batch/attempt_session.h"
#include "batch/attempt_steps.h"
#include "workspace/repository_discovery.h"

#include <csignal>

namespace agent_run {

namespace {

/// One attempt as it runs: its result so far and what its phases share. Each phase is one method;
/// run_attempt calls them in order. A phase that ends the attempt sets its outcome and returns false.
class Attempt {
 public:
  Attempt(const AttemptPlan& plan, const AttemptSettings& settings, const ProgressSink& progress)
      : m_plan(plan), m_settings(settings), m_reporter(progress), m_started(settings.clock->now()),
        m_result(start_result()) {}

  bool make_workspace();
  bool set_up();
  bool run_agent();
  void run_checks();
  void end_commands() { finish_commands(m_commands, m_result); }
  void save_patch();
  void commit();
  void remove_workspace();
  AttemptResult finish();

 private:
  AttemptResult start_result() const;
  /// False, with the attempt ended as interrupted during `phase`, once the run's cancellation fired.
  bool still_wanted(const std::string& phase);
  void mark_interrupted(const std::string& during);
  Expected<std::unique_ptr<Workspace>> prepare_workspace() const;

  const AttemptPlan& m_plan;
  const AttemptSettings& m_settings;
  ProgressReporter m_reporter;
  const Clock::SteadyTime m_started;
  AttemptResult m_result;
  std::unique_ptr<Workspace> m_workspace;
  ProcessTable m_commands;  // setup and checks: what they leave running lives until the attempt ends
  AgentRun m_agent;         // how the agent loop went, for the checks
};

AttemptResult Attempt::start_result() const {
  AttemptResult result;
  result.task_id = m_plan.task->id;
  result.task_file = m_plan.task->source.string();
  result.task_sha256 = m_plan.task->source_sha256;
  result.policy_file = m_plan.policy->source.string();
  result.policy_sha256 = m_plan.policy->sha256;
  result.model = m_plan.model;
  result.repeat_index = m_plan.repeat_index;
  result.started_at = format_utc(m_settings.clock->wall_now());
  return result;
}

bool Attempt::still_wanted(const std::string& phase) {
  if (!m_settings.cancellation || !m_settings.cancellation->cancelled()) return true;
  mark_interrupted(phase);
  return false;
}

/// Ends the attempt as interrupted: an error, since nobody could judge it; --resume runs it again.
void Attempt::mark_interrupted(const std::string& during) {
  int signal = m_settings.cancellation->signal();
  std::string by = signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "a stop request";
  set_outcome(m_result, OutcomeType::interrupted,
              "interrupted by " + by + " during " + during + "; agent-run --resume runs it again");
}

Expected<std::unique_ptr<Workspace>> Attempt::prepare_workspace() const {
  const Task& task = *m_plan.task;
  WorkspaceSpec spec = task.workspace;
  if (spec.repo.empty()) {
    auto repository = find_enclosing_repository(task.source);
    if (!repository) {
      return make_error(task.source.string() + ": no git repository holds this task file; set workspace.repo");
    }
    spec.repo = *repository;
  }
  return Workspace::prepare(spec, m_settings.scratch_folder, task.id);
}

bool Attempt::make_workspace() {
  std::error_code ec;
  std::filesystem::remove_all(m_settings.reports->root() / m_plan.folder, ec);  // what an interrupted try left
  m_reporter.phase("workspace");
  auto workspace = prepare_workspace();
  m_result.durations.workspace_ms = elapsed_ms(m_started, m_settings.clock->now());
  if (!workspace) {
    set_outcome(m_result, OutcomeType::workspace_failed, workspace.error().message);
    return false;
  }
  m_workspace = std::move(*workspace);
  return true;
}

bool Attempt::set_up() {
  m_reporter.phase("setup");
  if (auto sandbox = check_attempt_sandbox(*m_plan.task, *m_plan.policy); !sandbox) {
    set_outcome(m_result, OutcomeType::sandbox_unavailable, sandbox.error().message);
    return false;
  }
  bool set_up = run_setup(*m_plan.task, m_workspace->root(), m_settings, m_commands, m_result);
  return still_wanted("setup") && set_up;
}

/// Runs the agent loop in the workspace, filling in the result's AgentRecord as it goes; false when
/// no model could be made.
bool Attempt::run_agent() {
  auto model = m_settings.make_model(*m_plan.task, m_plan.model);
  if (!model) {
    set_outcome(m_result, OutcomeType::model_unavailable, model.error().message);
    return false;
  }
  m_reporter.phase("agent");
  m_result.transcript_path = m_plan.folder + "/transcript.jsonl";
  TranscriptRecorder transcript(m_settings.reports->root() / m_result.transcript_path);
  ToolRegistry tools = make_tool_registry(m_plan.task->tools);
  const ToolScope scope = make_tool_scope(*m_plan.task, *m_plan.policy, m_workspace->root(), m_settings);
  SessionState session;
  session.status.context_window = (*model)->context_window();  // from the price table; script: unknown
  if (!m_plan.task->mcp_servers.empty()) m_reporter.phase("mcp");
  AttemptMcpServers mcp(*m_plan.task, scope, session, m_settings, tools);
  if (auto failure = mcp.required_failure()) {
    mcp.finish(m_result);
    finish_session(scope, session, m_result);
    set_outcome(m_result, OutcomeType::mcp_unavailable, *failure);
    return false;
  }
  AgentLoop loop(**model, tools, *m_plan.policy, *m_settings.clock, {&transcript, &m_reporter});
  m_agent = loop.run(m_plan.task->prompt, m_plan.task->limits, scope, session, m_result);
  mcp.finish(m_result);  // before the session's processes are stopped: its servers are not escapes
  finish_session(scope, session, m_result);
  m_result.durations.model_ms = m_agent.model_ms;
  m_result.durations.tools_ms = m_agent.tools_ms;
  return true;
}

void Attempt::run_checks() {
  if (!still_wanted("the agent loop")) return;
  m_reporter.phase("checks");
  judge(*m_plan.task, m_agent, m_workspace->root(), m_settings, m_commands, m_result);
  still_wanted("the checks");
}

void Attempt::save_patch() {
  m_reporter.phase("patch");
  auto patch = m_workspace->diff();
  if (!patch) {
    m_result.message += m_result.message.empty() ? "" : "; ";
    m_result.message += "could not compute the patch: " + patch.error().message;
    return;
  }
  m_result.patch = PatchStats{patch->files_changed, patch->lines_added, patch->lines_removed};
  m_result.patch_path = m_plan.folder + "/patch.diff";
  (void)write_file_atomically(m_settings.reports->root() / m_result.patch_path, patch->text);
}

/// Commits a passed attempt's changes to the task's `commit:` branch; a failure makes it an error.
void Attempt::commit() {
  m_reporter.phase("commit");
  std::optional<CommitSpec> commit = commit_for(m_plan);
  if (!commit || m_result.outcome != Outcome::passed || m_result.patch.files_changed == 0) return;
  auto sha = m_workspace->commit(commit->branch, commit->message);
  if (!sha) {
    set_outcome(m_result, OutcomeType::commit_failed, sha.error().message);
    return;
  }
  m_result.commit = CommitRecord{commit->branch, *sha};
}

void Attempt::remove_workspace() {
  m_reporter.phase("cleanup");
  const Clock::SteadyTime cleanup_started = m_settings.clock->now();
  if (m_settings.diagnostics) m_settings.diagnostics->release_workspace(m_workspace->root());
  auto finished = m_workspace->finish(m_settings.keep);
  m_result.durations.cleanup_ms = elapsed_ms(cleanup_started, m_settings.clock->now());
  if (!finished && m_result.outcome == Outcome::passed) {
    set_outcome(m_result, OutcomeType::workspace_cleanup_failed, finished.error().message);
  }
}

AttemptResult Attempt::finish() {
  if (m_result.outcome == Outcome::error && m_result.outcome_type != OutcomeType::interrupted) {
    still_wanted("its preparation");  // a workspace or model that failed because of the interruption
  }
  m_result.durations.total_ms = elapsed_ms(m_started, m_settings.clock->now());
  return std::move(m_result);
}

}  // namespace

AttemptResult run_attempt(const AttemptPlan& plan, const AttemptSettings& settings, const ProgressSink& progress) {
  Attempt attempt(plan, settings, progress);
  // The phases in order. Once the workspace is made it is always removed; the patch is saved
  // whenever the agent ran, even when it was interrupted, and committed only when it passed.
  if (attempt.make_workspace()) {
    const bool agent_ran = attempt.set_up() && attempt.run_agent();
    if (agent_ran) attempt.run_checks();
    attempt.end_commands();  // what setup and the checks left running
    if (agent_ran) {
      attempt.save_patch();
      attempt.commit();
    }
    attempt.remove_workspace();
  }
  return attempt.finish();
}

}  // namespace agent_run
