#include "app/commands.h"

#include "app/load_inputs.h"
#include "base/clock.h"
#include "batch/batch_run.h"
#include "batch/console_progress.h"
#include "diagnostics/edit_checker.h"
#include "model/scripted_model.h"
#include "report/report_folder.h"

namespace agent_run {

namespace {

Expected<std::unique_ptr<ModelClient>> make_model(const Task& task, const std::string& model) {
  if (model == "script") {
    return std::unique_ptr<ModelClient>(std::make_unique<ScriptedModel>(task.script));
  }
  return check_model_name(model).error();
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
  SystemClock clock;
  ReportFolder reports(options.out);
  AttemptSettings settings;
  settings.clock = &clock;
  settings.reports = &reports;
  settings.scratch_folder = std::filesystem::temp_directory_path() / "agent-run";
  settings.keep = options.keep_workspaces ? KeepWorkspace::yes : KeepWorkspace::no;
  settings.environment = context.environment;
  settings.make_model = make_model;
  std::optional<EditChecker> diagnostics;  // its servers shut down when the run ends
  if (!options.no_diagnostics) settings.diagnostics = &diagnostics.emplace();

  RunReport report = start_report(options, context, clock);
  if (options.policy) {
    report.policy_sha256 = inputs->policy_of.front()->sha256;
  }
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
