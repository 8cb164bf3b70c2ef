#include "batch/run_attempt.h"

#include "agent/agent_loop.h"
#include "agent/structured_output.h"
#include "agent/system_prompt.h"
#include "agent/transcript_recorder.h"
#include "base/cancellation.h"
#include "base/files.h"
#include "base/paths.h"
#include "base/text.h"
#include "batch/attempt_environment.h"
#include "batch/attempt_mcp.h"
#include "batch/attempt_model.h"
#include "batch/attempt_session.h"
#include "batch/attempt_steps.h"
#include "batch/check_feedback.h"
#include "batch/edit_check_runner.h"
#include "batch/patch_secrets.h"
#include "batch/project_gate.h"
#include "batch/run_budget.h"
#include "batch/sandbox_setup.h"
#include "batch/task_programs.h"
#include "exec/child_environment.h"
#include "task/task_loader.h"
#include "tools/diagnostics_hook.h"
#include "workspace/repository_discovery.h"

#include <algorithm>
#include <csignal>

namespace agent_run {

namespace {

/// One attempt as it runs: its result so far and what its phases share. Each phase is one method;
/// run_attempt calls them in order. A phase that ends the attempt sets its outcome and returns false.
class Attempt {
 public:
  Attempt(const AttemptPlan& plan, const AttemptSettings& settings, const ProgressSink& progress)
      : m_plan(plan), m_settings(settings), m_reporter(progress), m_started(settings.clock->now()),
        m_result(start_result()), m_observer(settings.observe ? settings.observe(plan) : nullptr) {}

  bool make_workspace();
  bool set_up();
  bool run_agent();
  void run_checks();
  void end_commands();
  void save_patch();
  /// Ends the attempt as an error when a file its report names could not be written.
  void report_unwritten();
  void commit();
  void remove_workspace();
  AttemptResult finish();

 private:
  AttemptResult start_result() const;
  /// False, with the attempt ended as interrupted during `phase`, once the run's cancellation fired.
  bool still_wanted(const std::string& phase);
  void mark_interrupted(const std::string& during);
  Expected<std::unique_ptr<Workspace>> prepare_workspace() const;
  SandboxSite sandbox_site() const;
  std::filesystem::path scratch_folder() const;
  bool check_sandbox();
  bool take_patch_baseline();
  bool start_sandbox_for(const std::string& phase, std::optional<StartedSandbox>& into, const Survey* previous);
  AgentRequest agent_request(const ToolRegistry& tools, const std::vector<std::string>& unavailable,
                             std::vector<std::unique_ptr<FinishReview>>& reviews);
  void save_structured_output();

  const AttemptPlan& m_plan;
  const AttemptSettings& m_settings;
  ProgressReporter m_reporter;
  const Clock::SteadyTime m_started;
  AttemptResult m_result;
  std::unique_ptr<Workspace> m_workspace;
  ProcessTable m_commands;  // setup and checks: what they leave running lives until the attempt ends
  AgentRun m_agent;         // how the agent loop went, for the checks
  SandboxSpec m_sandbox;    // the attempt's (resolved once, before setup)
  std::optional<StartedSandbox> m_agent_sandbox;  // the agent's commands; its survey tells the checks' what it hid
  std::optional<StartedSandbox> m_check_sandbox;  // a fresh one for the checks
  std::unique_ptr<AttemptObserver> m_observer;  // settings.observe's, when there is one
  std::filesystem::path m_snapshot_objects;     // the objects of the snapshot after setup; removed with the workspace
  std::filesystem::path m_home_cache;           // HOME/.cache of each of its sandboxes; removed with the workspace
  GateBaselines m_gates;                        // the project gates' baselines, checked before the agent's first turn
  std::vector<std::string> m_unwritten;         // files of the report that could not be written, and why
};

AttemptResult Attempt::start_result() const {
  AttemptResult result;
  result.task_id = m_plan.task->id;
  result.task_file = m_plan.task->source.string();
  result.task_sha256 = m_plan.task->source_sha256;
  result.policy_file = m_plan.policy->source.string();
  result.policy_sha256 = m_plan.policy->sha256;
  result.model = m_plan.model;
  result.n = m_plan.n;
  result.started_at = format_utc(m_settings.clock->wall_now());
  result.environment_dropped = dropped_names(*m_plan.task, m_settings);
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
  std::string by = signal == SIGINT            ? "SIGINT"
                   : signal == SIGTERM         ? "SIGTERM"
                   : signal == k_max_time_stop ? "the run's --max-time"
                                               : "a stop request";
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
  if (m_plan.task->checks.empty()) m_result.warnings.push_back(no_checks_warning(*m_plan.task));
  m_reporter.phase("setup");
  if (!check_sandbox()) return false;
  bool set_up = run_setup(*m_plan.task, m_workspace->root(), m_settings, m_commands, m_result);
  return still_wanted("setup") && set_up && take_patch_baseline();
}

/// The patch holds only what changes from here on: what setup wrote, and the untracked files an
/// in-place workspace had, are not the agent's (a hidden one's content, and a hard-linked one's, is
/// hashed, never stored in the repository).
bool Attempt::take_patch_baseline() {
  m_workspace->withhold(baseline_filter(*m_plan.policy, resolved_path(m_workspace->root()),
                                        attempt_protected_paths(*m_plan.task, *m_plan.policy, m_settings)));
  auto objects = make_unique_folder(scratch_folder(), "snapshot-");
  if (!objects) {
    set_outcome(m_result, OutcomeType::workspace_failed, objects.error().message);
    return false;
  }
  m_snapshot_objects = *objects;  // outside the workspace and hidden from the sandbox, as the scratch is
  if (auto taken = m_workspace->take_baseline(*objects); !taken) {
    set_outcome(m_result, OutcomeType::workspace_failed, taken.error().message);
    return false;
  }
  return true;
}

/// Resolves the attempt's sandbox and, when it is on, checks that bubblewrap works here before setup
/// is spent on an attempt that cannot run: an attempt is never run unsandboxed instead.
bool Attempt::check_sandbox() {
  m_sandbox = attempt_sandbox(*m_plan.task, *m_plan.policy, m_settings.sandbox_flag);
  if (m_sandbox.mode == SandboxMode::off) {
    m_result.sandbox = sandbox_record(sandbox_site(), nullptr, why_unsandboxed(m_sandbox));
    m_result.warnings.push_back(unsandboxed_warning(m_sandbox, 1));
    return true;
  }
  // One HOME/.cache for every sandbox of the attempt: the checks' fresh sandbox finds the Go build
  // cache (and pip's, ...) that the baselines, the per-edit checks and the agent's commands filled.
  // The cache only saves time: without it each sandbox starts with an empty HOME/.cache.
  if (auto cache = make_unique_folder(scratch_folder(), "home-cache-")) m_home_cache = *cache;
  else m_result.warnings.push_back("no build cache shared by the attempt's sandboxes: " + cache.error().message);
  if (!m_settings.sandbox_probe) return true;  // start_sandbox_for says what fails
  if (auto works = m_settings.sandbox_probe->check(m_sandbox); !works) {
    m_result.sandbox = sandbox_record(sandbox_site(), nullptr, "unavailable: " + works.error().message);
    set_outcome(m_result, OutcomeType::sandbox_unavailable, works.error().message);
    return false;
  }
  return true;
}

/// Where the attempt's folders outside its workspace go (hidden from its sandboxes).
std::filesystem::path Attempt::scratch_folder() const {
  return m_settings.scratch_folder.empty() ? std::filesystem::temp_directory_path() : m_settings.scratch_folder;
}

SandboxSite Attempt::sandbox_site() const {
  SandboxSite site;
  site.spec = m_sandbox;
  site.workspace = resolved_path(m_workspace->root());
  site.origin = m_workspace->origin();
  site.policy = m_plan.policy;
  site.protected_paths = attempt_protected_paths(*m_plan.task, *m_plan.policy, m_settings);
  site.runner_home = m_settings.runner_home;
  site.scratch = scratch_folder();
  if (!m_home_cache.empty()) site.home_cache = m_home_cache;
  site.hidden_roots = {site.scratch};
  site.environment = child_environment(
      {m_settings.environment, m_plan.task->secrets, TaskSecrets::withheld, ChildPlace::runner, env_names(*m_plan.task)});
  site.clock = m_settings.clock;
  return site;
}

/// Starts a sandbox for `phase` (the agent, the checks); when it cannot start, the attempt is
/// `sandbox.unavailable`.
bool Attempt::start_sandbox_for(const std::string& phase, std::optional<StartedSandbox>& into, const Survey* previous) {
  if (m_sandbox.mode == SandboxMode::off) return true;
  SandboxSite site = sandbox_site();
  // Only a sandbox that starts needs them (PATH lookups, the gate's checker choice), not the records.
  site.shown = task_shown_folders(*m_plan.task, m_sandbox, site.environment, m_workspace->root(), m_settings.runner_home);
  auto started = start_sandbox(site, previous);
  if (!started) {
    std::string message = "the sandbox for " + phase + " (" + sandbox_asker(m_sandbox) +
                          ") cannot start: " + started.error().message + "; " +
                          sandbox_advice(started.error().message, read_machine_facts(false));
    if (phase == "the agent") m_result.sandbox = sandbox_record(site, nullptr, "unavailable: " + message);
    set_outcome(m_result, OutcomeType::sandbox_unavailable, message);
    return false;
  }
  into = std::move(*started);
  if (phase == "the agent") {
    m_result.sandbox = sandbox_record(site, &*into, "");
    m_result.sandboxed = true;
  }
  return true;
}

/// The workspace as the system prompt names it: the repository's folder name and how it was made.
std::string workspace_description(const Task& task) {
  const WorkspaceSpec& spec = task.workspace;
  std::string name = spec.repo.empty() ? "the task's repository" : spec.repo.filename().string();
  switch (spec.isolation.value_or(Isolation::worktree)) {
    case Isolation::worktree: return name + " (a git worktree at " + spec.ref + ")";
    case Isolation::copy: return name + " (a copy)";
    case Isolation::in_place: return name + " (worked on in place)";
  }
  return name;
}

/// What the agent loop is given: the system prompt (recorded by its hash), the task's prompt,
/// limits and context settings, the secrets to keep from the model, and the reviews of its finished
/// work (the output schema, then the checks with check_feedback).
AgentRequest Attempt::agent_request(const ToolRegistry& tools, const std::vector<std::string>& unavailable,
                                    std::vector<std::unique_ptr<FinishReview>>& reviews) {
  const Task& task = *m_plan.task;
  PromptFacts facts{workspace_description(task), operating_system_name(), m_settings.clock->wall_now()};
  for (const ToolSchema& schema : tools.schemas()) facts.tools.push_back(schema.name);
  facts.unavailable = unavailable;
  facts.limits = task.limits;
  // Those of a monorepo's folders above a workspace made of one of its folders too, as Codex reads them.
  facts.project = read_project_instructions(m_workspace->root(), task.instruction_files,
                                            folders_above_in_repository(task.workspace.repo));
  facts.task_instructions = task.instructions;
  facts.output_schema = task.output_schema;
  SystemPrompt system = make_system_prompt(facts, task.system_prompt);
  m_result.system_prompt_sha256 = system.sha256;
  if (!task.system_prompt) {
    for (const ProjectInstructions& project : facts.project) m_result.instruction_files.push_back(project.file);
  }
  AgentRequest request{system.text, task.prompt, task.limits, task.context};
  request.secret_values = secret_values_of(task, m_settings);
  if (task.output_schema) {
    if (auto schema = JsonSchema::compile(*task.output_schema)) {
      reviews.push_back(std::make_unique<OutputSchemaReview>(std::move(*schema)));
    }
  }
  if (task.check_feedback.rounds > 0 && !task.checks.empty()) {
    // The rounds run in the agent's sandbox (they see what it left running); the checks' fresh one
    // is only for checks run after the agent stopped.
    const AttemptSandbox* sandbox = m_agent_sandbox ? m_agent_sandbox->sandbox.get() : nullptr;
    reviews.push_back(std::make_unique<CheckFeedbackReview>(task, *m_workspace, m_settings, m_commands,
                                                            sandbox, m_gates, m_result.durations, m_observer.get()));
  }
  for (const auto& review : reviews) request.reviews.push_back(review.get());
  return request;
}

/// Runs the agent loop in the workspace, filling in the result's AgentRecord as it goes; false when
/// a project gate's checker is missing or no model could be made.
bool Attempt::run_agent() {
  // A project gate whose checker is missing could never judge the attempt: end it before any model call.
  if (auto unrunnable =
          unrunnable_gate(*m_plan.task, m_workspace->root(), gate_environment(*m_plan.task, m_settings))) {
    set_outcome(m_result, OutcomeType::check_not_judged,
                unrunnable->where + ": " + unrunnable->why + "; the attempt ended before the agent's first turn");
    return false;
  }
  auto model = make_attempt_model(m_plan, m_settings, m_workspace->root());
  if (!model) {
    set_outcome(m_result, OutcomeType::model_unavailable, model.error().message);
    return false;
  }
  m_reporter.phase("agent");
  if (!start_sandbox_for("the agent", m_agent_sandbox, nullptr)) return false;
  m_result.transcript_path = m_plan.folder + "/transcript.jsonl";
  TranscriptRecorder transcript(m_settings.reports->root() / m_result.transcript_path);
  ToolRegistry tools = make_tool_registry(m_plan.task->tools);
  const AttemptSandbox* sandbox = m_agent_sandbox ? m_agent_sandbox->sandbox.get() : nullptr;
  const Survey* survey = m_agent_sandbox ? &m_agent_sandbox->survey : nullptr;
  ToolScope scope = make_tool_scope(*m_plan.task, *m_plan.policy, m_workspace->root(), m_settings, sandbox, survey);
  warm_diagnostics(scope);  // the language servers start in the sandbox beside the baselines and the first turn
  // Before the agent's first turn, in its sandbox: nothing the agent runs can reach the baseline.
  const Clock::SteadyTime baseline_started = m_settings.clock->now();
  m_gates = check_gate_baselines(*m_plan.task, *m_workspace, m_settings, m_commands, sandbox);
  for (const auto& [index, gate] : m_gates) {
    if (gate.checker_runs > 0) m_result.durations.baseline_ms = elapsed_ms(baseline_started, m_settings.clock->now());
    m_result.warnings.insert(m_result.warnings.end(), gate.warnings.begin(), gate.warnings.end());
  }
  EditCheckRunner edit_checks(*m_plan.task, m_workspace->root(), m_settings, m_commands, sandbox);
  if (has_edit_checks(*m_plan.task)) scope.edit_checks = &edit_checks;  // in the agent's sandbox, as rounds are
  SessionState session;
  session.status.context_window =
      m_plan.task->context.window ? m_plan.task->context.window : model->client->context_window();
  if (!m_plan.task->mcp_servers.empty()) m_reporter.phase("mcp");
  AttemptMcpServers mcp(*m_plan.task, scope, session, m_settings, tools);
  if (auto failure = mcp.required_failure()) {
    mcp.finish(m_result);
    finish_session(session, m_result);
    set_outcome(m_result, OutcomeType::mcp_unavailable, *failure);
    return false;
  }
  const std::vector<std::string> unavailable = mcp.unavailable();
  for (const std::string& line : unavailable) m_result.warnings.push_back(line);
  for (const std::string& line : mcp.skipped_tools()) m_result.warnings.push_back(line);
  std::vector<std::unique_ptr<FinishReview>> reviews;
  const AgentRequest request = agent_request(tools, unavailable, reviews);
  std::vector<AgentObserver*> observers = {&transcript, &m_reporter};
  if (m_observer) {
    m_observer->agent_starting(m_workspace->root(), m_result.sandbox);
    observers.push_back(m_observer.get());
  }
  AgentLoop loop(*model->client, tools, *m_plan.policy, *m_settings.clock, observers);
  loop.take_tool_updates(&mcp);  // a server's list_changed: listed again, offered from the next request
  m_agent = loop.run(request, scope, session, m_result);
  if (model->replay_warnings) {
    for (const std::string& warning : model->replay_warnings()) m_result.warnings.push_back(warning);
  }
  mcp.finish(m_result);  // before the session's processes are stopped: its servers are not escapes
  finish_session(session, m_result);
  if (auto written = transcript.finish(); !written) {
    m_result.transcript_path.clear();  // the report never names a file that is not there, or not whole
    m_unwritten.push_back("the transcript: " + written.error().message);
  }
  if (m_agent_sandbox) {
    m_agent_sandbox->sandbox->stop();  // its survey stays, for the checks' sandbox
    record_later_masks(m_result.sandbox, sandbox_site(), *m_agent_sandbox, "agent");
    for (std::string& warning : removed_warnings(*m_agent_sandbox, sandbox_site())) m_result.warnings.push_back(std::move(warning));
  }
  m_result.durations.model_ms = m_agent.model_ms;
  m_result.durations.tools_ms = m_agent.tools_ms;
  save_structured_output();
  return true;
}

/// The structured final answer in a file of its own, for bots that post it.
void Attempt::save_structured_output() {
  if (!m_result.structured_output) return;
  const std::string path = m_plan.folder + "/output.json";
  if (auto written = write_file_atomically(m_settings.reports->root() / path,
                                           m_result.structured_output->dump_pretty() + "\n");
      !written) {
    m_unwritten.push_back("output.json: " + written.error().message);
    return;
  }
  m_result.output_path = path;
}

void Attempt::report_unwritten() {
  if (m_unwritten.empty()) return;
  std::string message = "could not write " + join(m_unwritten, "; ");
  if (m_result.outcome == Outcome::error) {  // an error already: it stays, and says this too
    m_result.message += (m_result.message.empty() ? "" : "; ") + message;
    return;
  }
  set_outcome(m_result, OutcomeType::runner_crashed,
              message + " (the attempt had " + std::string(to_string(m_result.outcome_type)) + ")");
}

void Attempt::run_checks() {
  if (!still_wanted("the agent loop")) return;
  m_reporter.phase("checks");
  // The checks run code the agent wrote: in a sandbox of their own, surveyed afresh (what the agent
  // renamed stays hidden), with a /tmp and HOME of their own. With check feedback the last round,
  // run in the agent's sandbox while it worked, decides, and none is started.
  const bool judged_in_rounds = !m_result.check_rounds.empty();
  // A command, a project gate, or the per-edit gate's re-check of the final tree (a linter or server
  // reading the agent's files)
  const bool runs_commands = std::any_of(m_plan.task->checks.begin(), m_plan.task->checks.end(), [&](const Check& check) {
    return !check.no_new_diagnostics || check.project || (m_settings.diagnostics && m_plan.task->diagnostics);
  });
  if (runs_commands && agent_finished(m_result) && !judged_in_rounds) {
    const Survey* previous = m_agent_sandbox ? &m_agent_sandbox->survey : nullptr;
    if (!start_sandbox_for("the checks", m_check_sandbox, previous)) return;
  }
  const AttemptSandbox* sandbox = m_check_sandbox ? m_check_sandbox->sandbox.get() : nullptr;
  judge(*m_plan.task, m_agent, *m_workspace, m_settings, m_commands, sandbox, m_gates, m_result);
  if (m_observer && !judged_in_rounds && !m_result.checks.empty()) m_observer->checks_ran(1, m_result.checks);
  still_wanted("the checks");
}

void Attempt::end_commands() {
  finish_commands(m_commands, m_result);                  // what setup and the checks left running
  if (!m_check_sandbox) return;
  m_check_sandbox->sandbox->stop();  // its survey stays, for the patch
  record_later_masks(m_result.sandbox, sandbox_site(), *m_check_sandbox, "checks",
                     m_agent_sandbox ? &*m_agent_sandbox : nullptr);
  for (std::string& warning : removed_warnings(*m_check_sandbox, sandbox_site())) m_result.warnings.push_back(std::move(warning));
}

void Attempt::save_patch() {
  m_reporter.phase("patch");
  const Survey* survey = m_check_sandbox   ? &m_check_sandbox->survey
                         : m_agent_sandbox ? &m_agent_sandbox->survey
                                           : nullptr;
  const std::vector<std::string> secrets = secret_values_of(*m_plan.task, m_settings);  // the checks had them
  m_workspace->withhold(withholding_secrets(
      patch_filter(*m_plan.policy, resolved_path(m_workspace->root()),
                   attempt_protected_paths(*m_plan.task, *m_plan.policy, m_settings), survey),
      m_workspace->root(), secrets));
  auto patch = m_workspace->diff();
  if (!patch) {
    m_result.message += m_result.message.empty() ? "" : "; ";
    m_result.message += "could not compute the patch: " + patch.error().message;
    return;
  }
  m_result.patch = PatchStats{patch->files_changed, patch->lines_added, patch->lines_removed};
  for (const WithheldChange& change : patch->withheld) m_result.patch_withheld.push_back({change.path, change.why});
  if (!patch->withheld.empty()) {
    m_result.warnings.push_back(
        std::to_string(patch->withheld.size()) + (patch->withheld.size() == 1 ? " changed path is" : " changed paths are") +
        " withheld, kept from the agent by the policy or holding a secret's value (" +
        patch->withheld.front().path + ": " + patch->withheld.front().why +
        (patch->withheld.size() > 1 ? ", ..." : "") +
        "); they are not in patch.diff nor in the commit (the report's patch_withheld lists them)");
  }
  RedactedPatch redacted = redact_patch(patch->text, secrets);  // what a withheld file cannot take away
  if (!redacted.files.empty()) {
    m_result.warnings.push_back("patch.diff held the value of one of the task's secrets in " + join(redacted.files, ", ") +
                                "; it is shown there as [redacted]");
  }
  const std::string path = m_plan.folder + "/patch.diff";
  if (auto written = write_file_atomically(m_settings.reports->root() / path, redacted.text); !written) {
    m_unwritten.push_back("patch.diff: " + written.error().message);
    return;
  }
  m_result.patch_path = path;
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
  std::error_code ec;
  if (!m_snapshot_objects.empty()) std::filesystem::remove_all(m_snapshot_objects, ec);
  if (!m_home_cache.empty()) std::filesystem::remove_all(m_home_cache, ec);
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
  if (m_observer) m_observer->finished(m_result);
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
      attempt.report_unwritten();  // before the commit: an attempt whose files are lost is not committed
      attempt.commit();
    }
    attempt.remove_workspace();
  }
  return attempt.finish();
}

}  // namespace agent_run
