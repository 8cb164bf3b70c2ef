#include "batch/attempt_environment.h"

#include <algorithm>

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

}  // namespace

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
  return values;
}

}  // namespace agent_run
