#pragma once

#include "base/expected.h"
#include "exec/sandbox.h"

#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agent_run {

/// What the machine says about user namespaces and containers: which advice fits a failure.
struct MachineFacts {
  std::optional<long> apparmor_restrict_unprivileged_userns;  // Ubuntu 23.10+: 1 forbids them to unconfined programs
  std::optional<long> max_user_namespaces;                    // 0: none at all
  std::optional<long> unprivileged_userns_clone;              // Debian's older kernels: 0 forbids them
  bool in_container = false;                                  // /.dockerenv or /run/.containerenv
  bool kubernetes = false;                                    // KUBERNETES_SERVICE_HOST is set (app/ reads it)
};

/// Reads the sysctls and container markers (files only; `kubernetes` comes from app/).
MachineFacts read_machine_facts(bool kubernetes);

/// What a person should do when bubblewrap said `said` on a machine with `facts`: the advice that
/// ends every `sandbox.unavailable` message. Always offers `sandbox: off` last.
std::string sandbox_advice(std::string_view said, const MachineFacts& facts);

/// Whether a sandbox of the spec's network kind can start here: one holder and one command inside it,
/// once per network kind, cached (thread-safe: attempts run side by side). The error says who asked
/// for the sandbox (the spec's set_by), what failed in bubblewrap's words, and what to do.
class SandboxProbe {
 public:
  /// `environment`: PATH finds bubblewrap and util-linux; `folder`: where the trial sandbox is made.
  SandboxProbe(std::vector<std::string> environment, std::filesystem::path folder, MachineFacts facts);

  Expected<void> check(const SandboxSpec& spec);

 private:
  Expected<void> try_once(SandboxNetwork network) const;

  std::vector<std::string> m_environment;
  std::filesystem::path m_folder;
  MachineFacts m_facts;
  std::mutex m_mutex;
  std::map<SandboxNetwork, std::optional<std::string>> m_results;  // nullopt: works; else bubblewrap's words
};

/// Who asked for a sandbox, for messages: "the task tasks/t.yaml:9", "the default".
std::string sandbox_asker(const SandboxSpec& spec);

}  // namespace agent_run
