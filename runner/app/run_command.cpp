#include "app/commands.h"

#include "app/environment.h"
#include "app/github_step.h"
#include "app/grep_setting.h"
#include "app/load_inputs.h"
#include "app/model_factory.h"
#include "app/run_configuration.h"
#include "app/signal_scope.h"
#include "base/clock.h"
#include "base/count_text.h"
#include "batch/baseline_cache.h"
#include "batch/batch_run.h"
#include "batch/console_progress.h"
#include "batch/resume.h"
#include "batch/sandbox_setup.h"
#include "batch/stream_json.h"
#include "diagnostics/edit_checker.h"
#include "exec/child_process.h"
#include "report/report_folder.h"
#include "report/report_reader.h"
#include "workspace/repository_discovery.h"
#include "workspace/scratch_area.h"

#include <algorithm>
#include <set>

namespace agent_run {

namespace {

/// Where the lines for a person go: stdout, or stderr when stdout carries stream-json events or
/// -p's answer.
std::ostream& human(const CliOptions& options, const ProgramContext& context) {
  return options.output_format == OutputFormat::stream_json || options.prompt ? context.err : context.out;
}

/// Everything a run reads before it starts, checked: nothing runs when any of it is wrong.
struct RunInputs {
  RunConfiguration configuration;
  LoadedInputs loaded;
  PriceTable prices;
  GrepBackend grep_backend = GrepBackend::automatic;
  std::vector<AttemptPlan> plans;
};

/// The model options the flags set, over every model's configured ones.
ModelOptions flag_options(const CliOptions& options) {
  ModelOptions flags;
  flags.max_output_tokens = options.max_output_tokens;
  flags.temperature = options.temperature;
  flags.thinking_budget = options.thinking_budget;
  flags.reasoning_effort = options.reasoning_effort;
  return flags;
}

/// How the run's real model clients are set up: flag > agent-run.yaml > built-in (the environment's
/// endpoints over the configuration's).
ModelWiring model_wiring(const CliOptions& options, const ProgramContext& context, const RunInputs& inputs,
                         const Clock& clock, const Cancellation& cancellation) {
  const RunConfiguration& configuration = inputs.configuration;
  ModelWiring wiring;
  wiring.access = context.model_access;
  const ModelAccess defaults;
  if (wiring.access.anthropic.base_url == defaults.anthropic.base_url && configuration.anthropic_base_url) {
    wiring.access.anthropic.base_url = *configuration.anthropic_base_url;
  }
  if (wiring.access.openai.base_url == defaults.openai.base_url && configuration.openai_base_url) {
    wiring.access.openai.base_url = *configuration.openai_base_url;
  }
  if (auto retries = options.model_retries ? options.model_retries : configuration.model_retries) {
    wiring.client.max_retries = *retries;
  }
  if (auto idle = options.model_idle_timeout ? options.model_idle_timeout : configuration.model_idle_timeout) {
    wiring.client.idle_timeout = *idle;
  }
  wiring.client.cancellation = &cancellation;
  wiring.options_for = [configuration, flags = flag_options(options)](const std::string& model) {
    return configuration.options_for(model).overlaid_by(flags);
  };
  wiring.prices = &inputs.prices;
  wiring.clock = &clock;
  return wiring;
}

/// Reads the configuration, the task files (or makes the -p task), their policies and the price
/// table, and plans the attempts.
Expected<RunInputs> gather_inputs(const CliOptions& options, const ProgramContext& context) {
  RunInputs run;
  AR_TRY_ASSIGN(run.configuration, configuration_for(options));
  std::vector<Task> ad_hoc;
  if (options.prompt) {
    auto task = ad_hoc_task(run.configuration, *options.prompt, options.workspace, options.checks);
    if (!task) return task.error();
    ad_hoc.push_back(std::move(*task));
  }
  AR_TRY_ASSIGN(run.prices, run_price_table(options, run.configuration));
  const InputReviewSettings review{&run.prices, checks_required(options, run.configuration), options.replay.has_value(),
                                   &context.environment, sandbox_flag(options.sandbox)};
  AR_TRY_ASSIGN(run.loaded, load_inputs(options.files, options.policy, options.models, run.configuration.defaults,
                                        std::move(ad_hoc), &review));
  for (const std::string& warning : run.loaded.warnings) context.err << "agent-run: " << warning << "\n";
  warn_about_unenforceable_cost_limits(run.loaded.tasks, options.models, run.prices, context.err);
  auto grep_backend = grep_backend_setting(context.environment, run.configuration.grep);
  if (!grep_backend) return make_error("agent-run: " + grep_backend.error().message);
  run.grep_backend = *grep_backend;
  AR_TRY_ASSIGN(run.plans, plan_attempts(run.loaded.tasks, run.loaded.policy_of,
                                         PlanOptions{options.models, options.repeat, options.shard, options.filters}));
  return run;
}

/// The values of every name the run's tasks list under `secrets:`, from agent-run's environment.
std::map<std::string, std::string> secrets_of(const std::vector<Task>& tasks, const ProgramContext& context) {
  std::vector<std::string> names;
  for (const Task& task : tasks) names.insert(names.end(), task.secrets.begin(), task.secrets.end());
  return secret_values(context.environ_entries, names);
}

RunReport start_report(const CliOptions& options, const ProgramContext& context, const Clock& clock) {
  RunReport report;
  report.runner_version = AGENT_RUN_VERSION;
  report.started_at = format_utc(clock.wall_now());
  report.command_line = context.command_line;
  if (options.policy) {
    report.policy_file = *options.policy;
  }
  report.shard = options.shard;
  return report;
}

/// Says which finished results --resume drops, and why, and removes their folders from the report folder.
void drop_results(const ResumeState& state, const ReportFolder& reports, std::ostream* out) {
  for (const DroppedResult& dropped : state.dropped) {
    const AttemptResult& attempt = dropped.attempt;
    std::string folder = folder_to_remove(dropped, state);
    std::error_code ec;
    if (!folder.empty()) {
      std::filesystem::remove_all(reports.root() / folder, ec);
      for (auto up = std::filesystem::path(folder).parent_path(); !ec && up != "attempts"; up = up.parent_path()) {
        std::error_code not_empty;  // stops at the first folder that still holds something
        if (!std::filesystem::remove(reports.root() / up, not_empty)) break;
      }
    }
    if (!out) continue;
    *out << "resume: dropped " << attempt.task_id << " #" << attempt.n << " (" << attempt.model << ", "
         << to_string(attempt.outcome) << "): " << dropped.why;
    if (!folder.empty()) *out << (ec ? "; could not remove " : "; removed ") << folder;
    *out << "\n";
  }
}

/// With --resume, `report` takes over the finished attempts this run plans from the --out folder's
/// report.json (none when there is none yet), and its start; says what it kept. Refuses a report
/// priced by another price table than `report`'s.
Expected<void> take_over_previous(const std::vector<AttemptPlan>& plans, const ReportFolder& reports,
                                  const CliOptions& options, const ProgramContext& context, RunReport& report) {
  std::filesystem::path file = reports.root() / "report.json";
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) {
    if (!options.quiet) human(options, context) << "resume: no " << file.string() << " yet; running every attempt\n";
    return {};
  }
  auto previous = read_report_file(file);
  if (!previous) return make_error("cannot resume: " + previous.error().message);
  if (previous->price_table_version != report.price_table_version ||
      previous->price_table_file != report.price_table_file) {
    return make_error("cannot resume: " + file.string() + " priced its model calls with the price table " +
                      previous->price_table_version + " (" + previous->price_table_file + "), this run with " +
                      report.price_table_version + " (" + report.price_table_file + "); resume with the same --prices");
  }
  ResumeState state = resume_from(*previous, plans);
  report.started_at = previous->started_at;
  report.duration_ms = previous->duration_ms;
  report.attempts = std::move(state.done);
  if (!options.quiet) {
    human(options, context) << "resume: " << report.attempts.size() << " of " << plans.size()
                            << " attempts already done, " << plans.size() - report.attempts.size() << " to run ("
                            << state.interrupted << " interrupted, " << state.over_budget
                            << " skipped for the run's budget, "
                            << count_of(state.dropped.size(), "finished result", "finished results")
                            << " dropped)\n";
  }
  drop_results(state, reports, options.quiet ? nullptr : &human(options, context));
  return {};
}

/// Cleans up after killed runs (their workspaces, branches and processes), then claims this run's
/// scratch folder.
Expected<ScratchArea> prepare_scratch(const LoadedInputs& inputs, const CliOptions& options,
                                      const ProgramContext& context) {
  std::filesystem::path parent = std::filesystem::temp_directory_path() / "agent-run";
  StaleCleanup cleanup = clean_stale_runs(parent);
  std::set<std::filesystem::path> repositories;
  for (const Task& task : inputs.tasks) {
    if (!task.workspace.repo.empty()) repositories.insert(task.workspace.repo);
    else if (auto repository = find_enclosing_repository(task.source)) repositories.insert(*repository);
  }
  for (const std::filesystem::path& repository : repositories) {
    cleanup.workspaces += prune_orphaned_worktrees(repository).workspaces;
  }
  if ((cleanup.workspaces > 0 || cleanup.processes > 0) && !options.quiet) {
    human(options, context) << "cleaned up after a killed run: " << cleanup.workspaces << " workspaces removed, "
                            << cleanup.processes << " leftover processes killed\n";
  }
  for (const std::string& problem : cleanup.problems) context.err << "agent-run: warning: " << problem << "\n";
  return ScratchArea::claim(parent);
}

ProgressOptions progress_options(const CliOptions& options, const ProgramContext& context) {
  ProgressOptions progress;
  bool github = std::find(context.environment.begin(), context.environment.end(), "GITHUB_ACTIONS=true") !=
                context.environment.end();
  progress.style = github                    ? ProgressStyle::github
                   : context.out_is_terminal ? ProgressStyle::live
                                             : ProgressStyle::plain;
  progress.verbosity = options.quiet ? Verbosity::quiet : options.verbose ? Verbosity::verbose : Verbosity::normal;
  progress.width = context.terminal_width;
  return progress;
}

/// Where each task's workspaces come from: its workspace.repo, else the repository holding its file.
std::map<std::string, std::filesystem::path> workspace_sources(const LoadedInputs& inputs) {
  std::map<std::string, std::filesystem::path> sources;
  for (const Task& task : inputs.tasks) {
    std::filesystem::path repo = task.workspace.repo;
    if (repo.empty()) repo = find_enclosing_repository(task.source).value_or(std::filesystem::path());
    if (!repo.empty()) sources[task.id] = repo;
  }
  return sources;
}

int nothing_ran(const ProgramContext& context, const Error& error) {
  context.err << error.message << "\nagent-run: nothing ran\n";
  return static_cast<int>(ExitCode::invalid);
}

/// --replay names a report folder that is not the --out folder (which the run rewrites).
Expected<void> check_replay_folder(const CliOptions& options) {
  if (!options.replay) return {};
  std::error_code ec;
  if (!std::filesystem::is_directory(*options.replay, ec)) {
    return make_error("agent-run: --replay '" + *options.replay + "' is not a report folder");
  }
  if (std::filesystem::exists(options.out, ec) && std::filesystem::equivalent(*options.replay, options.out, ec)) {
    return make_error("agent-run: --replay '" + *options.replay +
                      "' is the --out folder, which the run rewrites; give the replay a new --out");
  }
  return {};
}

/// The final answer of the -p task, ending with one newline.
void print_answer(const AttemptResult& attempt, std::ostream& out) {
  const std::string& answer = attempt.final_message;
  if (answer.empty()) return;
  out << answer;
  if (answer.back() != '\n') out << "\n";
  out.flush();
}

}  // namespace

int run_command(const CliOptions& options, const ProgramContext& context) {
  auto inputs = gather_inputs(options, context);
  if (!inputs) return nothing_ran(context, inputs.error());
  if (auto replay = check_replay_folder(options); !replay) return nothing_ran(context, replay.error());
  SystemClock clock;
  ReportFolder reports(options.out);
  RunReport report = start_report(options, context, clock);
  if (options.policy) report.policy_sha256 = inputs->loaded.policy_of.front()->sha256;
  report.price_table_version = inputs->prices.version;
  report.price_table_file = inputs->prices.file;
  if (options.resume) {
    if (auto resumed = take_over_previous(inputs->plans, reports, options, context, report); !resumed) {
      return nothing_ran(context, resumed.error());
    }
  }
  Cancellation cancellation;
  SignalScope signals(cancellation);
  auto scratch = prepare_scratch(inputs->loaded, options, context);
  if (!scratch) return nothing_ran(context, scratch.error());

  AttemptSettings settings;
  settings.clock = &clock;
  settings.reports = &reports;
  settings.scratch_folder = scratch->path();
  settings.keep = options.keep_workspaces ? KeepWorkspace::yes : KeepWorkspace::no;
  settings.environment = context.environment;
  settings.variables = context.variables;
  settings.environment.push_back(scratch->environment_marker());
  settings.secret_values = secrets_of(inputs->loaded.tasks, context);
  settings.make_model = make_model_factory(model_wiring(options, context, *inputs, clock, cancellation));
  settings.grep_backend = inputs->grep_backend;
  settings.cancellation = &cancellation;
  settings.sandbox_flag = sandbox_flag(options.sandbox);
  settings.runner_home = environment_value(context.environment, "HOME");
  settings.record = options.record;
  if (options.replay || options.replay_loose) {  // --replay-loose alone: for the tasks with model: replay
    settings.replay = ReplaySettings{options.replay.value_or(""), options.replay_loose ? ReplayMode::loose : ReplayMode::strict};
  }
  if (auto refused = sandbox_needed_but_off(inputs->plans, settings.sandbox_flag)) {
    return nothing_ran(context, make_error(*refused));
  }
  for (const std::string& warning :
       unsandboxed_warnings(plans_to_run(inputs->plans, report.attempts), settings.sandbox_flag)) {
    context.err << "agent-run: warning: " << warning << "\n";
  }
  SandboxProbe probe(settings.environment, scratch->path() / "probe",
                     read_machine_facts(environment_value(context.environment, "KUBERNETES_SERVICE_HOST").has_value()));
  settings.sandbox_probe = &probe;
  BaselineCache baselines(baseline_cache_folder(context.environment));
  settings.baseline_cache = &baselines;
  std::optional<EditChecker> diagnostics;  // its servers shut down when the run ends
  if (!options.no_diagnostics) settings.diagnostics = &diagnostics.emplace();
  // With stream-json, stdout carries only the events; the progress lines go to stderr.
  const bool stream_json = options.output_format == OutputFormat::stream_json;
  StreamJsonSink events(context.out);
  if (stream_json) {
    const LoadedInputs& loaded = inputs->loaded;
    settings.observe = stream_json_observers(events, [&loaded](const AttemptPlan& plan) {
      return loaded.policy_from.at(static_cast<std::size_t>(plan.task - loaded.tasks.data()));
    });
  }
  ProgressOptions shown = progress_options(options, context);
  if (stream_json && shown.style == ProgressStyle::live) shown.style = ProgressStyle::plain;
  ConsoleProgress progress(human(options, context), reports.root(), shown, clock);
  auto finished =
      run_batch(inputs->plans, settings, std::move(report), progress, options.jobs, options.budget, &cancellation);
  diagnostics.reset();  // the language servers end before the scratch folder goes
  auto closed = scratch->close(settings.keep);
  if (!closed) context.err << "agent-run: warning: " << closed.error().message << "\n";
  if (settings.keep == KeepWorkspace::yes && !options.quiet) {
    human(options, context) << "workspaces kept in " << scratch->path().string() << "\n";
  }
  if (!finished) {  // the reports could not be written (a full disk, say): the last one written stays
    context.err << "agent-run: cannot write the reports: " << finished.error().message
                << "\nagent-run: " << (reports.root() / "report.json").string()
                << " holds what was written before; free some space and run again with --resume\n";
    return static_cast<int>(ExitCode::not_judged);
  }
  bool signalled = cancellation.cancelled() && cancellation.signal() != k_max_time_stop;  // not the run's --max-time
  int exit_code = signalled ? exit_code_for_signal(cancellation.signal()) : static_cast<int>(exit_code_for(*finished));
  if (stream_json) events.finish(*finished, exit_code, outcome_word(exit_code));
  GithubStep step = github_step(context.environment);
  RepositoryPaths paths = repository_paths(step.repository, workspace_sources(inputs->loaded));
  // Annotations go to stdout, unless stream-json or -p keeps it for its own (GitHub reads both).
  tell_github(step, *finished, exit_code, reports.root(), &paths, stream_json || options.prompt ? context.err : context.out,
              context.err);
  // -p answers like `claude -p`: the agent's last words on stdout, everything else on stderr.
  if (options.prompt && !stream_json && !finished->attempts.empty()) print_answer(finished->attempts.front(), context.out);
  return exit_code;
}

}  // namespace agent_run
