#include "app/commands.h"

#include "app/github_step.h"
#include "report/report_folder.h"
#include "report/report_merge.h"
#include "report/report_reader.h"
#include "report/report_writers.h"

namespace agent_run {

namespace {

/// A report folder named on the command line: the folder itself, or its report.json.
Expected<MergeInput> read_input(const std::string& argument, const std::filesystem::path& out) {
  std::error_code ec;
  std::filesystem::path folder = argument;
  std::filesystem::path file = folder / "report.json";
  if (!std::filesystem::exists(folder, ec)) return make_error("'" + argument + "' does not exist");
  if (!std::filesystem::is_directory(folder, ec)) {
    file = folder;
    folder = folder.parent_path().empty() ? "." : folder.parent_path();
  } else if (!std::filesystem::exists(file, ec)) {
    return make_error("'" + argument + "' is not a report folder: it has no report.json");
  }
  if (std::filesystem::exists(out, ec) && std::filesystem::equivalent(folder, out, ec)) {
    return make_error("--out '" + out.string() + "' is one of the folders to merge; choose a new folder");
  }
  auto report = read_report_file(file);
  if (!report) return report.error();
  return MergeInput{folder, std::move(*report)};
}

int refuse(const ProgramContext& context, const Error& error) {
  context.err << "agent-run merge: " << error.message << "\nagent-run merge: nothing was written\n";
  return static_cast<int>(ExitCode::invalid);
}

}  // namespace

int merge_command(const CliOptions& options, const ProgramContext& context) {
  std::vector<MergeInput> inputs;
  for (const std::string& argument : options.files) {
    auto input = read_input(argument, options.out);
    if (!input) return refuse(context, input.error());
    inputs.push_back(std::move(*input));
  }
  auto merged = merge_reports(inputs, context.command_line);
  if (!merged) return refuse(context, merged.error());
  auto missing = copy_merged_files(*merged, options.out);
  if (!missing) return refuse(context, missing.error());
  ReportFolder reports(options.out);
  if (auto written = reports.write(merged->report); !written) return refuse(context, written.error());
  for (const std::string& warning : merged->warnings) context.err << "agent-run merge: warning: " << warning << "\n";
  for (const std::string& file : *missing) context.err << "agent-run merge: warning: " << file << " is missing\n";
  context.out << "merged " << inputs.size() << " report folders\n" << run_summary_lines(merged->report);
  context.out << ReportFolder::files_line(reports.root());
  int exit_code = static_cast<int>(exit_code_for(merged->report));
  tell_github(github_step(context.environment), merged->report, exit_code, reports.root(), nullptr, context.out,
              context.err);
  return exit_code;
}

}  // namespace agent_run
