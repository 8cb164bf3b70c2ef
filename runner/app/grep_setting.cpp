#include "app/grep_setting.h"

namespace agent_run {

Expected<GrepBackend> grep_backend_setting(const std::vector<std::string>& environment,
                                           const std::optional<std::string>& configured) {
  const std::string prefix = "AGENT_RUN_GREP=";
  std::string value = configured.value_or("auto");
  for (const std::string& entry : environment) {
    if (entry.compare(0, prefix.size(), prefix) == 0) value = entry.substr(prefix.size());
  }
  if (value == "auto" || value.empty()) return GrepBackend::automatic;
  if (value == "builtin") return GrepBackend::builtin;
  if (value == "ripgrep" || value == "rg") return GrepBackend::ripgrep;
  return make_error("AGENT_RUN_GREP must be auto, builtin or ripgrep, got '" + value + "'");
}

}  // namespace agent_run
