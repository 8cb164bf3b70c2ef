#pragma once

#include <string>
#include <vector>

namespace agent_run {

/// Whether the agent's commands and the task's checks run inside bubblewrap at all.
enum class SandboxMode {
  bubblewrap,  // the default
  off,         // only when a task, a policy or --sandbox says so; recorded in the report and warned about
};

/// Whether sandboxed commands may use the network.
enum class SandboxNetwork {
  off,  // a loopback of their own, shared by the attempt's commands
  on,   // the machine's network, its loopback services and cloud metadata included
};

/// Where sandboxed commands may write.
enum class SandboxWrite {
  workspace,  // only the workspace, a private /tmp and an empty HOME
  none,       // not even the workspace: only the private /tmp and HOME
  anywhere,   // wherever the runner may write, but the protected paths
};

/// The sandbox an attempt's commands run in: the `sandbox:` key of a task or policy, `--sandbox`,
/// or the default (bubblewrap, network off, writes to the workspace, nothing shown beyond the
/// system's tree, the workspace and the task's programs).
struct SandboxSpec {
  SandboxMode mode = SandboxMode::bubblewrap;
  SandboxNetwork network = SandboxNetwork::off;
  SandboxWrite write = SandboxWrite::workspace;
  std::vector<std::string> read;        // `read:` folders of the machine shown read-only (absolute, or ~/ for HOME)
  std::vector<std::string> read_write;  // `read_write:` folders shown writable
  std::string set_by = "default";  // who said so: "tasks/t.yaml:9", "policies/p.yaml:3", "--sandbox off", "default"
};

const char* to_string(SandboxNetwork network);  // "off" | "on"
const char* to_string(SandboxWrite write);      // "workspace" | "none" | "anywhere"

}  // namespace agent_run
