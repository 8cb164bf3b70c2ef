#include "app/commands.h"

#include "app/grep_setting.h"
#include "app/load_inputs.h"
#include "app/model_factory.h"
#include "app/signal_scope.h"
#include "base/clock.h"
#include "batch/batch_run.h"
#include "batch/console_progress.h"
#include "batch/resume.h"
#include "diagnostics/edit_checker.h"
#include "report/report_folder.h"
#include "report/report_reader.h"
#include "workspace/repository_discovery.h"
#include "workspace/scratch_area.h"

#include <algorithm>
#include <set>

namespace agent_run {

namespace {

/// How the run's real model clients are set up, from the command line.
ModelWiring model_wiring(const CliOptions& options, const ProgramContext& context, const PriceTable& prices,
                         const Clock& clock) {
  ModelWiring wiring;
  wiring.access = context.model_access;
  wiring.request.max_output_tokens = options.max_output_tokens;
  wiring.request.temperature = options.temperature;
  if (options.model_retries) wiring.client.max_retries = *options.model_retries;
  if (options.model_idle_timeout) wiring.client.idle_timeout = *options.model_idle_timeout;
  wiring.prices = &prices;
  wiring.clock = &clock;
  return wiring;
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

/// With --resume, `report` takes over the finished attempts this run plans from the --out folder's
/// report.json (none when there is none yet), and its start; says what it kept. Refuses a report
/// priced by another price table than `report`'s.
Expected<void> take_over_previous(const std::vector<AttemptPlan>& plans, const ReportFolder& reports,
                                  const CliOptions& options, const ProgramContext& context, RunReport& report) {
  std::filesystem::path file = reports.root() / "report.json";
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) {
    if (!options.quiet) context.out << "resume: no " << file.string() << " yet; running every attempt\n";
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
    context.out << "resume: " << report.attempts.size() << " of " << plans.size() << " attempts already done, "
                << plans.size() - report.attempts.size() << " to run (" << state.interrupted << " interrupted, "
                << state.stale << " results of edited or unplanned tasks dropped)\n";
  }
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
    context.out << "cleaned up after a killed run: " << cleanup.workspaces << " workspaces removed, "
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

int nothing_ran(const ProgramContext& context, const Error& error) {
  context.err << error.message << "\nagent-run: nothing ran\n";
  return static_cast<int>(ExitCode::invalid);
}

}  // namespace

int run_command(const CliOptions& options, const ProgramContext& context) {
  auto inputs = load_inputs(options.files, options.policy, options.models);
  if (!inputs) return nothing_ran(context, inputs.error());
  auto prices = options.prices ? load_price_table(*options.prices) : Expected<PriceTable>(builtin_price_table());
  if (!prices) return nothing_ran(context, prices.error());
  warn_about_unenforceable_cost_limits(inputs->tasks, options.models, *prices, context.err);
  auto grep_backend = grep_backend_setting(context.environment);
  if (!grep_backend) return nothing_ran(context, make_error("agent-run: " + grep_backend.error().message));
  auto plans = plan_attempts(inputs->tasks, inputs->policy_of,
                             PlanOptions{options.models, options.repeat, options.shard, options.filters});
  if (!plans) return nothing_ran(context, plans.error());
  SystemClock clock;
  ReportFolder reports(options.out);
  RunReport report = start_report(options, context, clock);
  if (options.policy) report.policy_sha256 = inputs->policy_of.front()->sha256;
  report.price_table_version = prices->version;
  report.price_table_file = prices->file;
  if (options.resume) {
    if (auto resumed = take_over_previous(*plans, reports, options, context, report); !resumed) {
      return nothing_ran(context, resumed.error());
    }
  }
  Cancellation cancellation;
  SignalScope signals(cancellation);
  auto scratch = prepare_scratch(*inputs, options, context);
  if (!scratch) return nothing_ran(context, scratch.error());

  AttemptSettings settings;
  settings.clock = &clock;
  settings.reports = &reports;
  settings.scratch_folder = scratch->path();
  settings.keep = options.keep_workspaces ? KeepWorkspace::yes : KeepWorkspace::no;
  settings.environment = context.environment;
  settings.variables = context.variables;
  settings.environment.push_back(scratch->environment_marker());
  settings.make_model = make_model_factory(model_wiring(options, context, *prices, clock));
  settings.grep_backend = *grep_backend;
  settings.cancellation = &cancellation;
  std::optional<EditChecker> diagnostics;  // its servers shut down when the run ends
  if (!options.no_diagnostics) settings.diagnostics = &diagnostics.emplace();
  ConsoleProgress progress(context.out, reports.root(), progress_options(options, context), clock);
  auto finished = run_batch(*plans, settings, std::move(report), progress, options.jobs);
  diagnostics.reset();  // the language servers end before the scratch folder goes
  auto closed = scratch->close(settings.keep);
  if (!closed) context.err << "agent-run: warning: " << closed.error().message << "\n";
  if (settings.keep == KeepWorkspace::yes && !options.quiet) {
    context.out << "workspaces kept in " << scratch->path().string() << "\n";
  }
  if (!finished) {  // the reports could not be written (a full disk, say): the last one written stays
    context.err << "agent-run: cannot write the reports: " << finished.error().message
                << "\nagent-run: " << (reports.root() / "report.json").string()
                << " holds what was written before; free some space and run again with --resume\n";
    return static_cast<int>(ExitCode::not_judged);
  }
  if (cancellation.cancelled()) return exit_code_for_signal(cancellation.signal());
  return static_cast<int>(exit_code_for(*finished));
}

}  // namespace agent_run
