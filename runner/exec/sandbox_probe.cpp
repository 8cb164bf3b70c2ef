#include "exec/sandbox_probe.h"

#include "base/files.h"
#include "base/text.h"
#include "exec/attempt_sandbox.h"

#include <system_error>

namespace agent_run {

namespace {

namespace fs = std::filesystem;

std::optional<long> read_number(const fs::path& file) {
  auto text = read_file(file);
  if (!text) return std::nullopt;
  std::string trimmed(trim(*text));
  if (trimmed.empty()) return std::nullopt;
  char* end = nullptr;
  long value = std::strtol(trimmed.c_str(), &end, 10);
  if (end == trimmed.c_str()) return std::nullopt;
  return value;
}

bool says(std::string_view said, std::string_view words) { return said.find(words) != std::string_view::npos; }

/// bubblewrap's words for a mount of the layout that failed at one path ("Can't create file at P:
/// Read-only file system", "Can't mkdir P", "Can't bind mount P on Q"), not for the machine refusing
/// mounts altogether (a container's "Operation not permitted", a masked /proc).
bool mount_failure(std::string_view said) {
  return says(said, "Can't ") && !says(said, "Can't mount proc") && !says(said, "Operation not permitted");
}

/// bubblewrap's words for namespaces it could not make or join.
bool namespace_failure(std::string_view said) {
  for (std::string_view words : {"namespace", "uid map", "gid map", "RTM_NEWADDR", "unshare", "setns", "clone",
                                 "Operation not permitted", "Permission denied"}) {
    if (says(said, words)) return true;
  }
  return false;
}

constexpr const char* k_or_off = "or set 'sandbox: off' to run without it (recorded in the report)";

std::string container_advice(const MachineFacts& facts) {
  std::string advice =
      "this container forbids the namespaces the sandbox needs: run it with '--privileged', or with "
      "'--security-opt seccomp=unconfined --security-opt apparmor=unconfined --security-opt systempaths=unconfined' "
      "(GitHub Actions: 'container: {image: ..., options: --privileged}'";
  advice += facts.kubernetes ? "; Kubernetes: 'securityContext: {privileged: true}'), " : "), ";
  return advice + k_or_off;
}

}  // namespace

MachineFacts read_machine_facts(bool kubernetes) {
  MachineFacts facts;
  facts.apparmor_restrict_unprivileged_userns = read_number("/proc/sys/kernel/apparmor_restrict_unprivileged_userns");
  facts.max_user_namespaces = read_number("/proc/sys/user/max_user_namespaces");
  facts.unprivileged_userns_clone = read_number("/proc/sys/kernel/unprivileged_userns_clone");
  std::error_code ec;
  facts.in_container = fs::exists("/.dockerenv", ec) || fs::exists("/run/.containerenv", ec);
  facts.kubernetes = kubernetes;
  return facts;
}

std::string sandbox_advice(std::string_view said, const MachineFacts& facts) {
  if (says(said, "cannot run 'bwrap'"))
    return std::string("install Debian's 'bubblewrap' package (ci/setup.sh does), ") + k_or_off;
  if (says(said, "util-linux")) return std::string("install Debian's 'util-linux' package, ") + k_or_off;
  if (mount_failure(said)) {
    return std::string(
               "bubblewrap could not mount over the path it names (a mask over a file the policy hides, or a "
               "read-only mount); this machine's namespaces work, and nothing ran unsandboxed: what is at that "
               "path changed while the sandbox started, or lies where nothing can be mounted; run again, ") +
           k_or_off;
  }
  bool denied = says(said, "setting up uid map: Permission denied") || says(said, "Failed RTM_NEWADDR") ||
                says(said, "Creating new namespace failed: Permission denied");
  if (denied && facts.apparmor_restrict_unprivileged_userns.value_or(0) == 1) {
    return std::string(
               "Ubuntu's AppArmor forbids unprivileged user namespaces: run 'sudo sysctl -w "
               "kernel.apparmor_restrict_unprivileged_userns=0' first (on GitHub-hosted ubuntu-24.04 runners, in a "
               "step "
               "before agent-run), ") +
           k_or_off;
  }
  if (says(said, "No permissions to create new namespace") || facts.unprivileged_userns_clone.value_or(1) == 0) {
    return std::string(
               "this kernel forbids unprivileged user namespaces: run 'sudo sysctl -w "
               "kernel.unprivileged_userns_clone=1', ") +
           k_or_off;
  }
  if (says(said, "max_") || says(said, "No space left on device") || facts.max_user_namespaces.value_or(1) == 0) {
    return std::string(
               "user namespaces are disabled (user.max_user_namespaces=0) or agent-run runs inside another sandbox: "
               "run 'sudo sysctl -w user.max_user_namespaces=15000', or run agent-run outside the other sandbox, ") +
           k_or_off;
  }
  if (says(said, "Can't mount proc")) {
    return std::string(
               "this container masks /proc, so the sandbox cannot give commands a /proc of their own: run it with "
               "'--security-opt systempaths=unconfined' or '--privileged' (Kubernetes: 'procMount: Unmasked' with "
               "'hostUsers: false'), ") +
           k_or_off;
  }
  if (says(said, "Operation not permitted") && (facts.in_container || facts.kubernetes)) return container_advice(facts);
  if (!namespace_failure(said)) {
    return std::string("bubblewrap failed for the reason it gives above, and nothing ran unsandboxed; ") + k_or_off;
  }
  return std::string(
             "the sandbox cannot start on this machine (unprivileged user namespaces may be disabled, or a "
             "seccomp or AppArmor profile forbids them); ") +
         k_or_off;
}

std::string sandbox_asker(const SandboxSpec& spec) {
  if (spec.set_by == "default") return "on by default";
  if (spec.set_by.starts_with("--")) return spec.set_by;
  return "'sandbox:' at " + spec.set_by;
}

SandboxProbe::SandboxProbe(std::vector<std::string> environment, fs::path folder, MachineFacts facts)
    : m_environment(std::move(environment)), m_folder(std::move(folder)), m_facts(facts) {}

Expected<void> SandboxProbe::check(const SandboxSpec& spec) {
  if (spec.mode == SandboxMode::off) return {};
  std::optional<std::string> failure;
  {
    std::lock_guard<std::mutex> guard(m_mutex);
    auto known = m_results.find(spec.network);
    if (known == m_results.end()) {
      Expected<void> tried = try_once(spec.network);
      known = m_results.emplace(spec.network, tried ? std::nullopt : std::optional(tried.error().message)).first;
    }
    failure = known->second;
  }
  if (!failure) return {};
  return make_error("the sandbox (" + sandbox_asker(spec) + ") cannot start on this machine: " + *failure + "; " +
                    sandbox_advice(*failure, m_facts));
}

Expected<void> SandboxProbe::try_once(SandboxNetwork network) const {
  std::error_code ec;
  fs::create_directories(m_folder, ec);
  auto workspace = make_unique_folder(m_folder, "probe-");
  if (!workspace) return workspace.error();
  SandboxRequest request;
  request.spec.network = network;
  request.workspace = fs::canonical(*workspace, ec);
  Expected<void> outcome;
  {
    auto sandbox = AttemptSandbox::start(request, m_folder, m_environment);
    if (!sandbox) {
      outcome = sandbox.error();
    } else {
      ProcessSpec probe;
      probe.argv = {"/bin/true"};
      probe.environment = m_environment;
      probe.timeout = std::chrono::seconds(60);
      auto ran = run_process((*sandbox)->wrap(probe));
      if (!ran) outcome = ran.error();
      else if (ran->exit_code != 0)
        outcome = make_error(std::string(trim(ran->output)) + " (exit code " + std::to_string(ran->exit_code) +
                             " entering the sandbox)");
    }
  }
  fs::remove_all(*workspace, ec);
  return outcome;
}

}  // namespace agent_run
