#include "exec/sandbox.h"

#include "base/text.h"

namespace agent_run {

namespace {

constexpr const char* k_bubblewrap = "bwrap";

/// bwrap's options before the command: namespaces, then mounts in order (later ones win).
/// A user namespace always, and every capability dropped in it: without them a command run by root
/// (CI jobs, containers) keeps root's capabilities and undoes the mounts (`mount -o remount,rw /`);
/// and root without CAP_SYS_ADMIN (a container's root) can make no other namespace without one. A new
/// session, so a command cannot push input into a terminal. /run is hidden: it holds the machine's
/// sockets (docker.sock, D-Bus), which neither a read-only mount nor a network namespace stops.
std::vector<std::string> bubblewrap_options(const SandboxSpec& sandbox, const std::filesystem::path& workspace) {
  std::vector<std::string> argv = {k_bubblewrap,    "--die-with-parent", "--new-session", "--unshare-user",
                                   "--unshare-pid", "--unshare-ipc",     "--unshare-uts"};
  if (sandbox.network == SandboxNetwork::off) argv.push_back("--unshare-net");
  argv.insert(argv.end(), {"--cap-drop", "ALL"});
  if (sandbox.write == SandboxWrite::workspace) {
    argv.insert(argv.end(), {"--ro-bind", "/", "/", "--tmpfs", "/tmp", "--tmpfs", "/var/tmp"});
    argv.insert(argv.end(), {"--bind", workspace.string(), workspace.string()});
  } else if (sandbox.write == SandboxWrite::none) {
    argv.insert(argv.end(), {"--ro-bind", "/", "/", "--tmpfs", "/tmp", "--tmpfs", "/var/tmp"});
  } else {
    argv.insert(argv.end(), {"--bind", "/", "/"});
  }
  argv.insert(argv.end(), {"--tmpfs", "/run", "--dev", "/dev", "--proc", "/proc"});
  return argv;
}

}  // namespace

const char* to_string(SandboxNetwork network) { return network == SandboxNetwork::on ? "on" : "off"; }

const char* to_string(SandboxWrite write) {
  switch (write) {
    case SandboxWrite::workspace: return "workspace";
    case SandboxWrite::none: return "none";
    case SandboxWrite::anywhere: return "anywhere";
  }
  return "workspace";
}

ProcessSpec sandboxed(const ProcessSpec& spec, const SandboxSpec& sandbox, const std::filesystem::path& workspace) {
  ProcessSpec wrapped = spec;
  wrapped.argv = bubblewrap_options(sandbox, workspace);
  if (!spec.cwd.empty()) wrapped.argv.insert(wrapped.argv.end(), {"--chdir", spec.cwd.string()});
  wrapped.argv.push_back("--");
  wrapped.argv.insert(wrapped.argv.end(), spec.argv.begin(), spec.argv.end());
  return wrapped;
}

Expected<void> check_sandbox_works(const SandboxSpec& sandbox, const std::string& asked_by) {
  ProcessSpec probe;
  probe.argv = {"true"};
  probe.timeout = std::chrono::seconds(20);
  auto result = run_process(sandboxed(probe, sandbox, "/"));
  if (!result) {
    return make_error(asked_by + " asks for a sandbox, but bubblewrap is not installed (" + result.error().message +
                      "); install Debian's 'bubblewrap' package (ci/setup.sh does), or remove 'sandbox:'");
  }
  if (result->exit_code != 0) {
    std::string said(trim(result->output));
    return make_error(asked_by + " asks for a sandbox, but bubblewrap cannot make its namespaces here: " +
                      (said.empty() ? "exit code " + std::to_string(result->exit_code) : said) +
                      " (unprivileged user namespaces may be disabled on this machine)");
  }
  return {};
}

}  // namespace agent_run
