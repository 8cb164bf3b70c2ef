#include "task/configuration_loader.h"

#include "base/files.h"
#include "base/yaml_document.h"
#include "task/task_fields.h"

#include <limits>
#include <vector>

namespace agent_run {

namespace {

/// What the run-wide readers share while agent-run.yaml is read.
struct ConfigurationReading {
  YamlChecker& checker;
  RunConfiguration& configuration;
  std::filesystem::path folder;

  void set(const std::string& setting, YamlMark mark) { configuration.origins[setting] = checker.where(mark); }
};

using RunFieldReader = void (*)(const YamlNode& value, ConfigurationReading& reading);

/// One run-wide key and its reader.
struct RunField {
  const char* key;
  RunFieldReader read;
};

const std::vector<std::string> k_model_option_keys = {"max_output_tokens", "temperature", "thinking_budget",
                                                      "reasoning_effort", "context_window"};

/// The model option `key`, read into `options`; `name` names it in messages and origins.
void read_model_option(const std::string& key, const YamlNode& value, const std::string& name,
                       ConfigurationReading& reading, ModelOptions& options) {
  YamlChecker& checker = reading.checker;
  if (key == "max_output_tokens") {
    if (auto n = checker.integer(value, name, 1, std::numeric_limits<int>::max())) options.max_output_tokens = *n;
  } else if (key == "temperature") {
    if (auto t = checker.number_in(value, name, 0, 2)) options.temperature = *t;
  } else if (key == "thinking_budget") {
    if (auto n = checker.integer(value, name, 1024, std::numeric_limits<int>::max())) options.thinking_budget = *n;
  } else if (key == "reasoning_effort") {
    if (auto e = checker.choice(value, name, {"minimal", "low", "medium", "high"})) options.reasoning_effort = *e;
  } else if (key == "context_window") {
    if (auto n = checker.integer(value, name, 1000, std::numeric_limits<std::int64_t>::max())) {
      options.context_window = *n;
    }
  }
  reading.set(name, value.mark);
}

void read_prices(const YamlNode& value, ConfigurationReading& reading) {
  if (auto file = reading.checker.text(value, "prices")) {
    reading.configuration.prices = resolve_path(*file, reading.folder);
    reading.set("prices", value.mark);
  }
}

void read_grep(const YamlNode& value, ConfigurationReading& reading) {
  if (auto grep = reading.checker.choice(value, "grep", {"auto", "ripgrep", "builtin"})) {
    reading.configuration.grep = *grep;
    reading.set("grep", value.mark);
  }
}

void read_require_checks(const YamlNode& value, ConfigurationReading& reading) {
  if (auto choice = reading.checker.choice(value, "require_checks", {"true", "false"})) {
    reading.configuration.require_checks = *choice == "true";
    reading.set("require_checks", value.mark);
  }
}

/// `endpoints: {anthropic: URL, openai: URL}`; keys stay in the environment.
void read_endpoints(const YamlNode& value, ConfigurationReading& reading) {
  YamlChecker& checker = reading.checker;
  for (const char* key : {"api_key", "anthropic_api_key", "openai_api_key", "key"}) {
    if (const YamlNode* secret = value.find(key)) {
      checker.add(secret->mark, std::string("'endpoints.") + key +
                                    "': API keys are never read from a file; export ANTHROPIC_API_KEY or "
                                    "OPENAI_API_KEY in agent-run's environment");
      return;
    }
  }
  if (!checker.check_map(value, "endpoints", {"anthropic", "openai"})) return;
  for (auto [key, field] : {std::pair{"anthropic", &reading.configuration.anthropic_base_url},
                            std::pair{"openai", &reading.configuration.openai_base_url}}) {
    const YamlNode* url = value.find(key);
    if (url == nullptr) continue;
    auto text = checker.text(*url, std::string("endpoints.") + key);
    if (text && !text->starts_with("http://") && !text->starts_with("https://")) {
      checker.add(url->mark, std::string("'endpoints.") + key + "' must be an http:// or https:// URL, got " +
                                 describe_yaml(*url));
    } else if (text) {
      *field = *text;
      reading.set(std::string("endpoints.") + key, url->mark);
    }
  }
}

void read_model_retries(const YamlNode& value, ConfigurationReading& reading) {
  if (auto n = reading.checker.integer(value, "model_retries", 0, 100)) {
    reading.configuration.model_retries = static_cast<int>(*n);
    reading.set("model_retries", value.mark);
  }
}

void read_model_idle_timeout(const YamlNode& value, ConfigurationReading& reading) {
  if (auto duration = reading.checker.duration(value, "model_idle_timeout")) {
    reading.configuration.model_idle_timeout = *duration;
    reading.set("model_idle_timeout", value.mark);
  }
}

/// `models: {provider/name: {max_output_tokens, temperature, thinking_budget, reasoning_effort, context_window}}`.
void read_models(const YamlNode& value, ConfigurationReading& reading) {
  YamlChecker& checker = reading.checker;
  if (!value.is_map()) {
    checker.add(value.mark,
                "'models' must be a map of model names (provider/name) to settings, got " + describe_yaml(value));
    return;
  }
  for (const YamlEntry& entry : value.entries) {
    const std::string name = "models." + entry.key;
    if (entry.key.find('/') == std::string::npos) {
      checker.add(entry.key_mark, "'" + name + "': a model is named provider/name, e.g. anthropic/claude-sonnet-4-5");
      continue;
    }
    if (!checker.check_map(entry.value, name, k_model_option_keys)) continue;
    ModelOptions& options = reading.configuration.models[entry.key];
    for (const YamlEntry& option : entry.value.entries) {
      read_model_option(option.key, option.value, name + "." + option.key, reading, options);
    }
  }
}

/// The top-level model options (for every model): the same keys as a `models:` entry but the window.
void read_every_model_option(const std::string& key, const YamlNode& value, ConfigurationReading& reading) {
  read_model_option(key, value, key, reading, reading.configuration.every_model);
}

constexpr RunField k_run_fields[] = {
    {"prices", read_prices},
    {"grep", read_grep},
    {"require_checks", read_require_checks},
    {"endpoints", read_endpoints},
    {"model_retries", read_model_retries},
    {"model_idle_timeout", read_model_idle_timeout},
    {"models", read_models},
};

constexpr const char* k_every_model_keys[] = {"max_output_tokens", "temperature", "thinking_budget",
                                              "reasoning_effort"};

void read_configuration(const YamlNode& root, TaskReading& task_reading, ConfigurationReading& reading) {
  std::vector<std::string> known;
  for (const TaskField& field : shared_task_fields()) known.emplace_back(field.key);
  for (const RunField& field : k_run_fields) known.emplace_back(field.key);
  for (const char* key : k_every_model_keys) known.emplace_back(key);
  if (!reading.checker.check_map(root, "", known)) return;
  for (const TaskField& field : shared_task_fields()) {
    if (const YamlNode* value = root.find(field.key)) field.read(*value, task_reading);
  }
  for (const RunField& field : k_run_fields) {
    if (const YamlNode* value = root.find(field.key)) field.read(*value, reading);
  }
  for (const char* key : k_every_model_keys) {
    if (const YamlNode* value = root.find(key)) read_every_model_option(key, *value, reading);
  }
  check_shared_fields(root, task_reading);
}

}  // namespace

ModelOptions RunConfiguration::options_for(const std::string& model) const {
  auto found = models.find(model);
  return found == models.end() ? every_model : every_model.overlaid_by(found->second);
}

Expected<RunConfiguration> load_configuration(std::string_view yaml_text, const std::filesystem::path& source) {
  RunConfiguration configuration;
  configuration.source = source;
  YamlChecker checker(source.string());
  YamlDocument document = parse_yaml(yaml_text);
  checker.add_all(document.problems);
  if (document.root && !document.root->is_null()) {  // an empty file is an empty configuration
    std::error_code ignored;
    const std::filesystem::path folder = std::filesystem::absolute(source, ignored).parent_path();
    TaskReading task_reading{checker, configuration.defaults, folder};
    ConfigurationReading reading{checker, configuration, folder};
    read_configuration(*document.root, task_reading, reading);
  }
  if (!checker.ok()) return checker.error();
  return configuration;
}

Expected<RunConfiguration> load_configuration_file(const std::filesystem::path& path) {
  Expected<std::string> text = read_file(path);
  if (!text) return text.error();
  return load_configuration(*text, path);
}

std::optional<std::filesystem::path> find_configuration(const std::filesystem::path& folder) {
  std::error_code ec;
  std::filesystem::path file = folder / k_configuration_file;
  if (std::filesystem::is_regular_file(file, ec)) return file;
  return std::nullopt;
}

}  // namespace agent_run
