#include "app/environment.h"

#include "base/environment_names.h"

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

}  // namespace agent_run
