#pragma once

#include "base/expected.h"
#include "exec/process.h"

#include <filesystem>
#include <string>

namespace agent_run {

/// Whether sandboxed commands may use the network.
enum class SandboxNetwork { off, on };

/// Where sandboxed commands may write.
enum class SandboxWrite {
  workspace,  // only the workspace (and a private, empty /tmp that vanishes with the command)
  anywhere,   // wherever the runner may write
};

/// The task's `sandbox:` key: bash and background processes run inside bubblewrap.
struct SandboxSpec {
  SandboxNetwork network = SandboxNetwork::off;
  SandboxWrite write = SandboxWrite::workspace;
};

/// `spec` run inside bubblewrap: the whole file system read-only but the workspace (or writable
/// everywhere), its own /dev, /proc and PID namespace, and no network but its own loopback when the
/// network is off. The command keeps its folder, environment, timeout and process group.
ProcessSpec sandboxed(const ProcessSpec& spec, const SandboxSpec& sandbox, const std::filesystem::path& workspace);

/// Checks that bubblewrap is installed and can make the namespaces `sandbox` needs on this machine,
/// by running it once. The error says who asked (`asked_by`: "the task", "the policy FILE"), what is
/// missing and how to get it.
Expected<void> check_sandbox_works(const SandboxSpec& sandbox, const std::string& asked_by = "the task");

}  // namespace agent_run
