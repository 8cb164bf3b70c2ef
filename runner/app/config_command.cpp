#include "app/commands.h"

#include "app/grep_setting.h"
#include "app/load_inputs.h"
#include "app/run_configuration.h"
#include "base/duration.h"
#include "base/environment_names.h"
#include "base/text.h"
#include "batch/attempt_session.h"
#include "batch/sandbox_setup.h"
#include "model/scripted_model.h"
#include "policy/policy_loader.h"

#include <algorithm>
#include <cstdio>

namespace agent_run {

namespace {

/// One line of `agent-run config`: a setting, its effective value and where that value came from.
struct SettingLine {
  std::string name;
  std::string value;
  std::string origin;
};

/// Where a setting came from: a flag, else the task file or agent-run.yaml (FILE:LINE:COL), else built-in.
std::string origin_of(const std::map<std::string, std::string>& origins, const std::string& setting) {
  auto found = origins.find(setting);
  return found == origins.end() ? "built-in" : found->second;
}

std::string number_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

std::string share_text(double share) { return number_text(share * 100) + "%"; }

std::string list_text(const std::vector<std::string>& items) { return "[" + join(items, ", ") + "]"; }

/// The sandbox an attempt of `task` gets, resolved as a run resolves it (attempt_sandbox), so the two
/// cannot disagree.
SettingLine sandbox_line(const Task& task, const Policy& policy, const CliOptions& options) {
  const SandboxSpec spec = attempt_sandbox(task, policy, sandbox_flag(options.sandbox));
  const std::string value = spec.mode == SandboxMode::off
                                ? std::string("off")
                                : std::string("bubblewrap (network ") + to_string(spec.network) + ", write " +
                                      to_string(spec.write) + ")";
  return SettingLine{"sandbox", value, spec.set_by == "default" ? "built-in" : spec.set_by};
}

/// The settings of the task keys, with the flags that override them.
std::vector<SettingLine> task_lines(const Task& task, const Policy& policy, const CliOptions& options) {
  const auto& o = task.origins;
  auto line = [&](const std::string& name, std::string value) {
    return SettingLine{name, std::move(value), origin_of(o, name)};
  };
  std::vector<SettingLine> lines;
  lines.push_back(options.models.empty() ? line("model", task.model)
                                         : SettingLine{"model", join(options.models, ", "), "--model"});
  if (options.replay) lines.push_back(SettingLine{"replay", *options.replay, "--replay"});
  else if (task.replay) lines.push_back(line("replay", task.replay->string()));
  lines.push_back(options.policy ? SettingLine{"policy", *options.policy, "--policy"}
                                 : line("policy", task.policy ? task.policy->string() : "(the built-in policy)"));
  const Limits& limits = task.limits;
  lines.push_back(line("limits.turns", std::to_string(limits.turns)));
  lines.push_back(line("limits.tokens", limits.tokens ? std::to_string(*limits.tokens) : "(no limit)"));
  lines.push_back(line("limits.cost_usd", limits.cost_usd ? number_text(*limits.cost_usd) : "(no limit)"));
  lines.push_back(line("limits.time", format_duration(limits.time)));
  lines.push_back(line("limits.tool_timeout", format_duration(limits.tool_timeout)));
  lines.push_back(
      line("tools", task.tools ? list_text(*task.tools) : "(every built-in tool but web_fetch and web_search)"));
  lines.push_back(options.no_diagnostics ? SettingLine{"diagnostics", "off", "--no-diagnostics"}
                                         : line("diagnostics", task.diagnostics ? "on" : "off"));
  lines.push_back(sandbox_line(task, policy, options));
  lines.push_back(line("secrets", list_text(task.secrets)));
  for (const auto& [name, variable] : task.env) {
    const bool secret = std::find(task.secrets.begin(), task.secrets.end(), name) != task.secrets.end();
    lines.push_back(
        SettingLine{"env." + name, secret ? "(secret: setup and checks only)" : variable.value, variable.origin});
  }
  std::vector<std::string> servers;
  for (const McpServerSpec& server : task.mcp_servers) servers.push_back(server.name);
  lines.push_back(line("mcp_servers", servers.empty() ? "(none)" : list_text(servers)));
  lines.push_back(line("answers", std::to_string(task.answers.rules.size()) + " rules"));
  lines.push_back(line("web_search", task.web_search.empty() ? "(off)" : join(task.web_search, " ")));
  lines.push_back(line("system_prompt", task.system_prompt ? std::to_string(task.system_prompt->size()) +
                                                                 " bytes, replacing the built-in one"
                                                           : "(built in)"));
  lines.push_back(
      line("instructions", task.instructions.empty() ? "(none)" : std::to_string(task.instructions.size()) + " bytes"));
  lines.push_back(line("instruction_files", list_text(task.instruction_files)));
  const ContextSettings& context = task.context;
  lines.push_back(line("context.window", context.window ? std::to_string(*context.window) : "(the model's)"));
  lines.push_back(line("context.threshold", share_text(context.threshold)));
  lines.push_back(line("context.target", share_text(context.target)));
  lines.push_back(line("context.keep_turns", std::to_string(context.keep_turns)));
  lines.push_back(line("context.compaction", context.compaction ? "on" : "off"));
  lines.push_back(line("check_feedback", std::to_string(task.check_feedback.rounds) + " rounds, " +
                                             std::to_string(task.check_feedback.output_bytes) + " bytes of output"));
  lines.push_back(line("output_schema", task.output_schema ? "set" : "(none)"));
  return lines;
}

/// A model option: the flag, else the model's `models:` entry, else the top-level key, else built-in.
template <typename T, typename Text>
SettingLine model_option_line(const std::string& key, const std::string& flag, const std::optional<T>& from_flag,
                              const std::optional<T>& configured, const std::string& model,
                              const RunConfiguration& configuration, Text text) {
  if (from_flag) return SettingLine{key, text(*from_flag), flag};
  if (!configured)
    return SettingLine{key, key == "context_window" ? "(the price table's)" : "(the provider's)", "built-in"};
  auto specific = configuration.origins.find("models." + model + "." + key);
  return SettingLine{
      key, text(*configured),
      specific != configuration.origins.end() ? specific->second : origin_of(configuration.origins, key)};
}

std::vector<SettingLine> model_lines(const std::string& model, const RunConfiguration& configuration,
                                     const CliOptions& options) {
  const ModelOptions configured = configuration.options_for(model);
  auto integer = [](auto value) { return std::to_string(value); };
  auto text = [](const std::string& value) { return value; };
  std::vector<SettingLine> lines;
  lines.push_back(model_option_line("max_output_tokens", "--max-output-tokens", options.max_output_tokens,
                                    configured.max_output_tokens, model, configuration, integer));
  lines.push_back(model_option_line("temperature", "--temperature", options.temperature, configured.temperature, model,
                                    configuration, number_text));
  lines.push_back(model_option_line("thinking_budget", "--thinking-budget", options.thinking_budget,
                                    configured.thinking_budget, model, configuration, integer));
  lines.push_back(model_option_line("reasoning_effort", "--reasoning-effort", options.reasoning_effort,
                                    configured.reasoning_effort, model, configuration, text));
  lines.push_back(model_option_line<std::int64_t>("context_window", "", std::nullopt, configured.context_window, model,
                                                  configuration, integer));
  for (SettingLine& line : lines) line.name = "models." + model + "." + line.name;
  return lines;
}

/// The run's own settings: the flag, else the environment where it decides, else agent-run.yaml.
std::vector<SettingLine> run_lines(const RunConfiguration& configuration, const CliOptions& options,
                                   const ProgramContext& context) {
  const auto& o = configuration.origins;
  std::vector<SettingLine> lines;
  lines.push_back(options.prices
                      ? SettingLine{"prices", *options.prices, "--prices"}
                      : SettingLine{"prices",
                                    configuration.prices ? configuration.prices->string() : "(the built-in table)",
                                    origin_of(o, "prices")});
  std::string grep_variable;
  for (const std::string& entry : context.environment) {
    if (entry.starts_with("AGENT_RUN_GREP=")) grep_variable = entry.substr(15);
  }
  lines.push_back(!grep_variable.empty()
                      ? SettingLine{"grep", grep_variable, "environment (AGENT_RUN_GREP)"}
                      : SettingLine{"grep", configuration.grep.value_or("auto"), origin_of(o, "grep")});
  const ModelAccess defaults;
  for (auto [name, variable, configured, from_environment] :
       {std::tuple{"anthropic", "ANTHROPIC_BASE_URL", configuration.anthropic_base_url,
                   context.model_access.anthropic.base_url != defaults.anthropic.base_url},
        std::tuple{"openai", "OPENAI_BASE_URL", configuration.openai_base_url,
                   context.model_access.openai.base_url != defaults.openai.base_url}}) {
    const std::string key = std::string("endpoints.") + name;
    const ApiEndpoint& endpoint =
        std::string(name) == "anthropic" ? context.model_access.anthropic : context.model_access.openai;
    lines.push_back(from_environment
                        ? SettingLine{key, endpoint.base_url, std::string("environment (") + variable + ")"}
                        : SettingLine{key, configured.value_or(endpoint.base_url), origin_of(o, key)});
  }
  auto retries = options.model_retries ? options.model_retries : configuration.model_retries;
  lines.push_back(SettingLine{"model_retries", std::to_string(retries.value_or(6)),
                              options.model_retries ? "--model-retries" : origin_of(o, "model_retries")});
  auto idle = options.model_idle_timeout ? options.model_idle_timeout : configuration.model_idle_timeout;
  lines.push_back(
      SettingLine{"model_idle_timeout", format_duration(idle.value_or(std::chrono::seconds(90))),
                  options.model_idle_timeout ? "--model-idle-timeout" : origin_of(o, "model_idle_timeout")});
  return lines;
}

void print_lines(const std::vector<SettingLine>& lines, std::ostream& out) {
  std::size_t name_width = 0;
  std::size_t value_width = 0;
  for (const SettingLine& line : lines) {
    name_width = std::max(name_width, line.name.size());
    value_width = std::max(value_width, std::min<std::size_t>(line.value.size(), 60));
  }
  for (const SettingLine& line : lines) {
    std::string name = line.name;
    name.resize(name_width + 2, ' ');
    std::string value = line.value;
    if (value.size() < value_width + 2) value.resize(value_width + 2, ' ');
    else value += "  ";
    out << name << value << line.origin << "\n";
  }
}

}  // namespace

int config_command(const CliOptions& options, const ProgramContext& context) {
  auto configuration = configuration_for(options);
  if (!configuration) {
    context.err << configuration.error().message << "\n";
    return static_cast<int>(ExitCode::invalid);
  }
  Task task = configuration->defaults;
  std::optional<Policy> policy;
  if (!options.files.empty()) {
    auto inputs = load_inputs(options.files, options.policy, options.models, configuration->defaults);
    if (!inputs) {
      context.err << inputs.error().message << "\n";
      return static_cast<int>(ExitCode::invalid);
    }
    task = inputs->tasks.front();
    policy = *inputs->policy_of.front();
  } else if (options.policy || task.policy) {
    auto loaded = load_policy_file(options.policy ? std::filesystem::path(*options.policy) : *task.policy);
    if (!loaded) {
      context.err << loaded.error().message << "\n";
      return static_cast<int>(ExitCode::invalid);
    }
    policy = std::move(*loaded);
  } else {
    policy = builtin_policy();
  }
  context.out << "configuration: "
              << (configuration->source.empty() ? "(none: no agent-run.yaml here and no --config)"
                                                : configuration->source.string())
              << "\n";
  if (!options.files.empty()) context.out << "task: " << options.files.front() << "\n";
  context.out << "\n";
  std::vector<SettingLine> lines = task_lines(task, *policy, options);
  for (const std::string& model : options.models.empty() ? std::vector<std::string>{task.model} : options.models) {
    if (is_scripted_model(model)) continue;
    std::vector<SettingLine> more = model_lines(model, *configuration, options);
    lines.insert(lines.end(), more.begin(), more.end());
  }
  std::vector<SettingLine> run = run_lines(*configuration, options, context);
  lines.insert(lines.end(), run.begin(), run.end());
  print_lines(lines, context.out);
  return static_cast<int>(ExitCode::all_passed);
}

}  // namespace agent_run
