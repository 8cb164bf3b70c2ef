#include "app/environment.h"

#include "exec/child_environment.h"

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

}  // namespace agent_run
