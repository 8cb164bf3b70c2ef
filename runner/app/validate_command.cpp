#include "app/commands.h"

#include "app/load_inputs.h"
#include "app/mcp_call_check.h"
#include "app/run_configuration.h"
#include "batch/sandbox_setup.h"
#include "task/configuration_loader.h"
#include "base/files.h"
#include "base/count_text.h"
#include "base/yaml_document.h"
#include "base/cancellation.h"
#include "policy/policy_loader.h"

namespace agent_run {

namespace {

/// A file with a top-level `rules:`, `unmatched:` or `extends:` key is a policy; anything else is a task.
bool looks_like_policy(const std::string& text) {
  YamlDocument document = parse_yaml(text);
  return document.root && (document.root->find("rules") != nullptr || document.root->find("unmatched") != nullptr ||
                           document.root->find("extends") != nullptr);
}

/// The warning that a scripted MCP call is not checked, which --mcp makes untrue.
bool is_unchecked_mcp_warning(const std::string& warning) {
  return warning.find("(agent-run validate --mcp starts it and checks it)") != std::string::npos;
}

/// --mcp: each task's scripted calls of MCP tools against its live servers; false when any is wrong.
bool check_live_mcp_calls(const std::vector<Task>& tasks, const ProgramContext& context) {
  bool valid = true;
  Cancellation cancellation;
  for (const Task& task : tasks) {
    McpLaunchContext launch;
    launch.environment = context.environment;
    launch.variables = context.variables;
    std::error_code ec;
    launch.workspace = task.workspace.repo.empty() ? std::filesystem::current_path(ec) : task.workspace.repo;
    launch.cancellation = &cancellation;
    for (const std::string& problem : check_mcp_script_calls(task, launch)) {
      context.err << problem << "\n";
      valid = false;
    }
  }
  return valid;
}

}  // namespace

int validate_command(const CliOptions& options, const ProgramContext& context) {
  std::vector<std::string> task_files;
  bool all_valid = true;
  auto configuration = configuration_for(options);  // the one the tasks would run with
  if (!configuration) {
    context.err << configuration.error().message << "\n";
    configuration = RunConfiguration{};
    all_valid = false;
  } else if (!configuration->source.empty()) {
    context.out << configuration->source.string() << ": valid configuration\n";
  }
  for (const std::string& file : options.files) {
    auto text = read_file(file);
    if (std::filesystem::path(file).filename() == k_configuration_file) {  // another configuration to check
      auto other = text ? load_configuration(*text, file) : Expected<RunConfiguration>(text.error());
      if (!other) context.err << other.error().message << "\n";
      else context.out << file << ": valid configuration\n";
      all_valid = all_valid && other.has_value();
    } else if (text && looks_like_policy(*text)) {
      auto policy = load_policy(*text, file);
      if (!policy) {
        context.err << policy.error().message << "\n";
        all_valid = false;
      } else {
        context.out << file << ": valid policy (" << count_of(policy->rules.size(), "rule", "rules") << ")\n";
      }
    } else {
      task_files.push_back(file);
    }
  }
  if (!task_files.empty()) {
    auto prices = run_price_table(options, *configuration);
    if (!prices) {
      context.err << prices.error().message << "\n";
      prices = builtin_price_table();
      all_valid = false;
    }
    const InputReviewSettings review{&*prices, checks_required(options, *configuration), false, &context.environment,
                                     sandbox_flag(options.sandbox)};
    auto inputs = load_inputs(task_files, options.policy, options.models, configuration->defaults, {}, &review);
    if (!inputs) {
      context.err << inputs.error().message << "\n";
      all_valid = false;
    } else {
      for (const std::string& warning : inputs->warnings) {
        if (!options.mcp || !is_unchecked_mcp_warning(warning)) context.err << warning << "\n";
      }
      if (options.mcp && !check_live_mcp_calls(inputs->tasks, context)) {
        all_valid = false;
      } else {
        for (const Task& task : inputs->tasks) {
          context.out << task.source.string() << ": valid task '" << task.id << "'\n";
        }
      }
    }
  }
  return static_cast<int>(all_valid ? ExitCode::all_passed : ExitCode::invalid);
}

}  // namespace agent_run
