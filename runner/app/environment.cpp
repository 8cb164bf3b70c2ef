#include "app/environment.h"

#include "base/environment_names.h"
#include "exec/child_process.h"

#include <algorithm>

namespace agent_run {

std::vector<std::string> scrubbed_environment(char** environ_entries) {
  std::vector<std::string> environment;
  for (char** entry = environ_entries; entry && *entry; ++entry) {
    std::string text = *entry;
    // By name only: a variable the task lists under `secrets:` (DATABASE_URL, with its password)
    // must reach setup and the checks; child_environment also looks at the values.
    if (!looks_secret(text.substr(0, text.find('=')))) environment.push_back(std::move(text));
  }
  return environment;
}

std::map<std::string, std::string> secret_values(char** environ_entries, const std::vector<std::string>& names) {
  std::map<std::string, std::string> values;
  for (char** entry = environ_entries; entry && *entry; ++entry) {
    std::string text = *entry;
    const auto equals = text.find('=');
    if (equals == std::string::npos) continue;
    std::string name = text.substr(0, equals);
    if (std::find(names.begin(), names.end(), name) != names.end()) values[name] = text.substr(equals + 1);
  }
  return values;
}

std::filesystem::path baseline_cache_folder(const std::vector<std::string>& environment) {
  auto set = [&](const char* name) {
    std::optional<std::string> value = environment_value(environment, name);
    return value && !value->empty() ? value : std::nullopt;
  };
  std::filesystem::path cache;
  if (auto own = set("AGENT_RUN_CACHE")) {
    cache = *own;
  } else if (auto xdg = set("XDG_CACHE_HOME")) {
    cache = std::filesystem::path(*xdg) / "agent-run";
  } else if (auto home = set("HOME")) {
    cache = std::filesystem::path(*home) / ".cache/agent-run";
  } else {
    return {};
  }
  return cache / "project-gate";
}

}  // namespace agent_run
