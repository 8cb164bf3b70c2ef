#include "batch/attempt_environment.h"

#include "base/environment_names.h"
#include "exec/child_environment.h"

#include <algorithm>
#include <set>

namespace agent_run {

namespace {

bool is_secret(const Task& task, const std::string& name) {
  return std::find(task.secrets.begin(), task.secrets.end(), name) != task.secrets.end();
}

std::string name_of(const std::string& entry) { return entry.substr(0, entry.find('=')); }

/// Sets NAME=value in `environment`, replacing what was there.
void set_variable(std::vector<std::string>& environment, const std::string& name, const std::string& value) {
  std::erase_if(environment, [&](const std::string& entry) { return name_of(entry) == name; });
  environment.push_back(name + "=" + value);
}

/// The shortest value of a dropped variable that looks secret that is redacted.
constexpr std::size_t k_shortest_dropped_secret = 8;

/// agent-run's whole environment, the scrubbed one's additions (the scratch marker) included.
std::vector<std::string> runner_environment(const AttemptSettings& settings) {
  std::vector<std::string> all = settings.variables;
  all.insert(all.end(), settings.environment.begin(), settings.environment.end());
  return all;
}

/// The names of `environment`'s entries.
std::set<std::string> names_in(const std::vector<std::string>& environment) {
  std::set<std::string> names;
  for (const std::string& entry : environment) names.insert(name_of(entry));
  return names;
}

}  // namespace

std::vector<std::string> env_names(const Task& task) {
  std::vector<std::string> names;
  for (const auto& [name, variable] : task.env) names.push_back(name);
  return names;
}

std::vector<std::string> tool_environment(const Task& task, const AttemptSettings& settings) {
  return child_environment({agent_environment(task, settings.environment), task.secrets, TaskSecrets::withheld,
                            ChildPlace::runner, env_names(task)});
}

std::vector<std::string> dropped_names(const Task& task, const AttemptSettings& settings) {
  const std::set<std::string> given = names_in(tool_environment(task, settings));
  std::vector<std::string> dropped;
  for (const std::string& name : names_in(runner_environment(settings))) {
    if (!given.contains(name)) dropped.push_back(name);
  }
  return dropped;
}

std::vector<std::string> agent_environment(const Task& task, const std::vector<std::string>& run_environment) {
  std::vector<std::string> environment = run_environment;
  std::erase_if(environment, [&](const std::string& entry) { return is_secret(task, name_of(entry)); });
  for (const auto& [name, variable] : task.env) {
    if (!is_secret(task, name)) set_variable(environment, name, variable.value);
  }
  return environment;
}

std::vector<std::string> command_environment(const Task& task, const AttemptSettings& settings) {
  std::vector<std::string> environment = settings.environment;
  for (const std::string& name : task.secrets) {
    auto found = settings.secret_values.find(name);
    if (found != settings.secret_values.end()) set_variable(environment, name, found->second);
  }
  for (const auto& [name, variable] : task.env) set_variable(environment, name, variable.value);
  return environment;
}

std::vector<std::string> secret_values_of(const Task& task, const AttemptSettings& settings) {
  std::vector<std::string> values;
  for (const std::string& name : task.secrets) {
    if (auto found = settings.secret_values.find(name); found != settings.secret_values.end()) {
      values.push_back(found->second);
    }
    if (auto found = task.env.find(name); found != task.env.end()) values.push_back(found->second.value);
  }
  const std::set<std::string> given = names_in(tool_environment(task, settings));
  for (const std::string& entry : runner_environment(settings)) {
    const std::string name = name_of(entry);
    const std::string value = entry.substr(std::min(entry.size(), name.size() + 1));
    if (given.contains(name) || value.size() < k_shortest_dropped_secret || !looks_secret(name, value)) continue;
    if (std::find(values.begin(), values.end(), value) == values.end()) values.push_back(value);
  }
  return values;
}

}  // namespace agent_run
