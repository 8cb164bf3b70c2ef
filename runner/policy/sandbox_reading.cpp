#include "policy/sandbox_reading.h"

namespace agent_run {

namespace {

/// `sandbox: on` or `sandbox: off`. YAML's other booleans are refused: `no` or `false` reads as a
/// decision to run unsandboxed, which must be written as itself.
std::optional<SandboxSpec> read_sandbox_switch(const YamlNode& value, YamlChecker& checker, SandboxSpec sandbox) {
  if (value.scalar == "on") return sandbox;
  if (value.scalar == "off") {
    sandbox.mode = SandboxMode::off;
    return sandbox;
  }
  checker.add(value.mark, "'sandbox' must be on, off or a map such as {network: off}, got " + describe_yaml(value) +
                              " (write 'on' or 'off')");
  return std::nullopt;
}

}  // namespace

std::optional<SandboxSpec> read_sandbox_spec(const YamlNode& value, YamlChecker& checker) {
  SandboxSpec sandbox;
  sandbox.set_by = checker.file() + ":" + std::to_string(value.mark.line);
  if (value.is_scalar()) return read_sandbox_switch(value, checker, sandbox);
  if (!value.is_null() && !checker.check_map(value, "sandbox", {"network", "write"})) return std::nullopt;
  if (const YamlNode* network = value.find("network")) {
    if (checker.choice(*network, "sandbox.network", {"off", "on"}) == "on") sandbox.network = SandboxNetwork::on;
  }
  if (const YamlNode* write = value.find("write")) {
    auto choice = checker.choice(*write, "sandbox.write", {"workspace", "none", "anywhere"});
    if (choice == "none") sandbox.write = SandboxWrite::none;
    if (choice == "anywhere") sandbox.write = SandboxWrite::anywhere;
  }
  return sandbox;
}

}  // namespace agent_run
