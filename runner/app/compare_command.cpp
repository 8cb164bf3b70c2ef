#include "app/commands.h"

#include "base/files.h"
#include "report/comparison_text.h"
#include "report/report_reader.h"

#include <filesystem>

namespace agent_run {

namespace {

/// A run named on the command line: a report.json, or the folder that holds one.
Expected<RunReport> read_run(const std::string& argument) {
  std::error_code ec;
  std::filesystem::path file = argument;
  if (!std::filesystem::exists(file, ec)) return make_error("'" + argument + "' does not exist");
  if (std::filesystem::is_directory(file, ec)) {
    file /= "report.json";
    if (!std::filesystem::exists(file, ec)) {
      return make_error("'" + argument + "' is not a report folder: it has no report.json");
    }
  }
  return read_report_file(file);
}

}  // namespace

int compare_command(const CliOptions& options, const ProgramContext& context) {
  auto base = read_run(options.files[0]);
  auto head = base ? read_run(options.files[1]) : Expected<RunReport>(base.error());
  auto comparison = head ? compare_runs(*base, *head, options.compare) : Expected<RunComparison>(head.error());
  if (!comparison) {
    context.err << "agent-run compare: " << comparison.error().message << "\n";
    return static_cast<int>(ExitCode::invalid);
  }
  if (options.json) {
    context.out << comparison_to_json(*comparison, options.files[0], options.files[1]).dump_pretty() << "\n";
  } else {
    context.out << comparison_markdown(*comparison, options.files[0], options.files[1]);
  }
  if (options.html) {
    auto written =
        write_file_atomically(*options.html, comparison_html(*comparison, options.files[0], options.files[1]));
    if (!written) {
      context.err << "agent-run compare: cannot write " << *options.html << ": " << written.error().message << "\n";
      return static_cast<int>(ExitCode::invalid);
    }
  }
  return options.fail_on_regression && comparison->regressed() ? 1 : 0;
}

}  // namespace agent_run
