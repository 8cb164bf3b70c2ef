#include "app/run_configuration.h"

#include "base/digest.h"
#include "task/configuration_loader.h"

namespace agent_run {

Expected<RunConfiguration> configuration_for(const CliOptions& options) {
  if (options.config) return load_configuration_file(*options.config);
  std::error_code ec;
  const std::filesystem::path here = std::filesystem::current_path(ec);
  if (auto found = ec ? std::nullopt : find_configuration(here)) {
    return load_configuration_file(std::filesystem::path(k_configuration_file));
  }
  return RunConfiguration{};
}

Expected<Task> ad_hoc_task(const RunConfiguration& configuration, const std::string& prompt,
                           const std::optional<std::string>& workspace, const std::vector<std::string>& checks) {
  std::error_code ec;
  const std::filesystem::path folder = std::filesystem::weakly_canonical(workspace.value_or("."), ec);
  if (ec || !std::filesystem::is_directory(folder, ec)) {
    return make_error("--workspace " + workspace.value_or(".") + ": not a folder");
  }
  Task task = configuration.defaults;
  task.id = "prompt";
  task.prompt = prompt;
  task.source = folder / "(-p)";  // no file: named so in messages, never written
  task.source_sha256 = sha256_hex(prompt);
  task.workspace.repo = folder;
  task.workspace.isolation = Isolation::in_place;
  if (!checks.empty()) {
    task.checks.clear();  // --check replaces the configuration's checks, as a task file's `checks:` would
    for (const std::string& command : checks) task.checks.push_back(Check{.run = command});
    task.origins["checks"] = "--check";
  }
  task.origins["prompt"] = "-p";
  task.origins["workspace"] = workspace ? "--workspace" : "-p (the current folder)";
  return task;
}

Expected<PriceTable> run_price_table(const CliOptions& options, const RunConfiguration& configuration) {
  if (options.prices) return load_price_table(*options.prices);
  if (configuration.prices) return load_price_table(*configuration.prices);
  return builtin_price_table();
}

ChecksRequired checks_required(const CliOptions& options, const RunConfiguration& configuration) {
  return options.require_checks || configuration.require_checks ? ChecksRequired::yes : ChecksRequired::no;
}

}  // namespace agent_run
