#include "policy/sandbox_reading.h"

namespace agent_run {

std::optional<SandboxSpec> read_sandbox_spec(const YamlNode& value, YamlChecker& checker) {
  SandboxSpec sandbox;
  if (!value.is_null() && !checker.check_map(value, "sandbox", {"network", "write"})) return std::nullopt;
  if (const YamlNode* network = value.find("network")) {
    if (checker.choice(*network, "sandbox.network", {"off", "on"}) == "on") sandbox.network = SandboxNetwork::on;
  }
  if (const YamlNode* write = value.find("write")) {
    auto choice = checker.choice(*write, "sandbox.write", {"workspace", "anywhere"});
    if (choice == "anywhere") sandbox.write = SandboxWrite::anywhere;
  }
  return sandbox;
}

}  // namespace agent_run
