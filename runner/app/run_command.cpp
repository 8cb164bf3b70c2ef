#include "app/commands.h"

#include "app/grep_setting.h"
#include "app/load_inputs.h"
#include "base/clock.h"
#include "batch/batch_run.h"
#include "batch/console_progress.h"
#include "app/model_factory.h"
#include "diagnostics/edit_checker.h"
#include "report/report_folder.h"

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
  return report;
}

}  // namespace

int run_command(const CliOptions& options, const ProgramContext& context) {
  auto inputs = load_inputs(options.files, options.policy, options.models);
  if (!inputs) {
    context.err << inputs.error().message << "\nagent-run: nothing ran\n";
    return static_cast<int>(ExitCode::invalid);
  }
  auto prices = options.prices ? load_price_table(*options.prices) : Expected<PriceTable>(builtin_price_table());
  if (!prices) {
    context.err << prices.error().message << "\nagent-run: nothing ran\n";
    return static_cast<int>(ExitCode::invalid);
  }
  warn_about_unenforceable_cost_limits(inputs->tasks, options.models, *prices, context.err);
  auto grep_backend = grep_backend_setting(context.environment);
  if (!grep_backend) {
    context.err << "agent-run: " << grep_backend.error().message << "\nagent-run: nothing ran\n";
    return static_cast<int>(ExitCode::invalid);
  }
  SystemClock clock;
  ReportFolder reports(options.out);
  AttemptSettings settings;
  settings.clock = &clock;
  settings.reports = &reports;
  settings.scratch_folder = std::filesystem::temp_directory_path() / "agent-run";
  settings.keep = options.keep_workspaces ? KeepWorkspace::yes : KeepWorkspace::no;
  settings.environment = context.environment;
  settings.make_model = make_model_factory(model_wiring(options, context, *prices, clock));
  settings.grep_backend = *grep_backend;
  std::optional<EditChecker> diagnostics;  // its servers shut down when the run ends
  if (!options.no_diagnostics) settings.diagnostics = &diagnostics.emplace();

  RunReport report = start_report(options, context, clock);
  if (options.policy) {
    report.policy_sha256 = inputs->policy_of.front()->sha256;
  }
  report.price_table_version = prices->version;
  report.price_table_file = prices->file;
  auto plans = plan_attempts(inputs->tasks, inputs->policy_of, PlanOptions{options.models, options.repeat});
  ConsoleProgress progress(context.out, reports.root());
  auto finished = run_batch(plans, settings, std::move(report), progress);
  if (!finished) {
    context.err << "agent-run: " << finished.error().message << "\n";
    return static_cast<int>(ExitCode::invalid);
  }
  return static_cast<int>(exit_code_for(*finished));
}

}  // namespace agent_run
