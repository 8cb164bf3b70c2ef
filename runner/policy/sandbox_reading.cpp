#include "policy/sandbox_reading.h"

#include <filesystem>
#include <utility>

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

/// `read:` or `read_write:`: folders of the machine, each absolute or under `~/`, never the whole
/// machine nor HOME whole.
std::optional<std::vector<std::string>> read_shown_folders(const YamlNode& value, std::string_view name,
                                                           YamlChecker& checker) {
  const std::string setting = "sandbox." + std::string(name);
  const std::vector<YamlNode>* items = checker.list(value, setting);
  if (!items) return std::nullopt;
  std::vector<std::string> folders;
  for (const YamlNode& item : *items) {
    auto folder = checker.text(item, setting);
    if (!folder) continue;
    std::string normal = std::filesystem::path(*folder).lexically_normal().string();
    while (normal.size() > 1 && normal.ends_with('/')) normal.pop_back();
    if (normal == "/" || normal == "~") {
      checker.add(item.mark, "'" + setting + "' cannot show '" + *folder +
                                 "': name the folders a task needs, not the whole machine or HOME");
    } else if (!normal.starts_with('/') && !normal.starts_with("~/")) {
      checker.add(item.mark, "'" + setting + "' takes absolute folders (or ~/FOLDER), got '" + *folder + "'");
    } else {
      folders.push_back(normal);
    }
  }
  return folders;
}

}  // namespace

std::optional<SandboxSpec> read_sandbox_spec(const YamlNode& value, YamlChecker& checker) {
  SandboxSpec sandbox;
  sandbox.set_by = checker.file() + ":" + std::to_string(value.mark.line);
  if (value.is_scalar()) return read_sandbox_switch(value, checker, sandbox);
  if (!value.is_null() && !checker.check_map(value, "sandbox", {"network", "write", "read", "read_write"}))
    return std::nullopt;
  if (const YamlNode* network = value.find("network")) {
    if (checker.choice(*network, "sandbox.network", {"off", "on"}) == "on") sandbox.network = SandboxNetwork::on;
  }
  if (const YamlNode* write = value.find("write")) {
    auto choice = checker.choice(*write, "sandbox.write", {"workspace", "none", "anywhere"});
    if (choice == "none") sandbox.write = SandboxWrite::none;
    if (choice == "anywhere") sandbox.write = SandboxWrite::anywhere;
  }
  for (auto [key, into] : {std::pair{"read", &sandbox.read}, std::pair{"read_write", &sandbox.read_write}}) {
    if (const YamlNode* folders = value.find(key)) {
      if (auto read = read_shown_folders(*folders, key, checker)) *into = std::move(*read);
    }
  }
  return sandbox;
}

}  // namespace agent_run
