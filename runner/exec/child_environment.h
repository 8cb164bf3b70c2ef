#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agent_run {

/// Whether a child gets the variables the task lists under `secrets:`.
enum class TaskSecrets {
  withheld,  // the agent's commands, web_search, language servers, linters, MCP servers
  passed,    // setup and checks: the task author's own commands (their output is redacted)
};

/// Where a child runs, which decides its HOME and temporary folder.
enum class ChildPlace {
  runner,   // beside agent-run (setup, web_search): the machine's HOME
  sandbox,  // inside the attempt's sandbox: the private, empty HOME and /tmp
};

/// What one child's environment is made of.
struct ChildEnvironmentSpec {
  std::vector<std::string> base;     // KEY=VALUE: agent-run's environment after app/'s first scrub
  std::vector<std::string> secrets;  // the task's `secrets:` names
  TaskSecrets task_secrets = TaskSecrets::withheld;
  ChildPlace place = ChildPlace::runner;
  std::vector<std::string> task_env;  // the task's `env:` names: kept by the allow list
};

/// The private HOME inside the sandbox: a folder of its private /tmp.
inline constexpr const char* k_sandbox_home = "/tmp/home";

/// The one builder of a child process's environment (bash, background processes, setup, checks,
/// web_search, language servers, linters, MCP servers): `base` without any variable whose name or
/// value looks secret (base/environment_names' looks_secret), without the sockets and files that reach outside or steer later CI steps
/// (SSH_AUTH_SOCK, DOCKER_HOST, KUBECONFIG, GITHUB_ENV, GITHUB_OUTPUT, ...), without the task's
/// `secrets:` unless passed. The agent's side (secrets withheld), wherever it runs, and every child
/// in the sandbox get an allow list: only the names allowed_for_commands accepts, the task's `env:`
/// names and, when passed, its secrets. In the sandbox, HOME is the private one, TMPDIR is /tmp, XDG
/// folders and proxies are dropped, and the tool roots HOME used to imply (pyenv, rustup, nvm, ...)
/// are set when they exist and are not set already.
std::vector<std::string> child_environment(const ChildEnvironmentSpec& spec);

/// Whether the allow list keeps the variable `name`: what a shell and the ordinary tools need and
/// no credential (PATH, the locale, TERM, TZ, HOME, USER, SHELL, TMPDIR, CI, GITHUB_* and the
/// tools' roots whose names do not look secret, agent-run's own process markers, ...). The table
/// is docs/policy-and-sandbox.md's "The environment inside".
bool allowed_for_commands(std::string_view name);

/// `environment`, already built by child_environment for a child beside agent-run, as a command
/// inside the sandbox gets it: the private HOME and /tmp, no XDG folders or proxies, the tool roots
/// the machine's HOME held. Nothing else is dropped: what it holds of the task's secrets was decided
/// by whoever built it (the checks get them, the agent's commands do not).
std::vector<std::string> moved_into_sandbox(std::vector<std::string> environment);

/// The folders the tool-root variables of `environment` name, with the variable: GOROOT, each entry
/// of GOPATH, GOMODCACHE, CARGO_HOME, RUSTUP_HOME, PYENV_ROOT, VIRTUAL_ENV, NVM_DIR, SDKMAN_DIR and
/// JAVA_HOME, when absolute. The sandbox shows them (exec/shown_folders).
std::vector<std::pair<std::string, std::filesystem::path>> tool_root_folders(const std::vector<std::string>& environment);

/// The values of the variables named `names` in `environment`: what to redact from output.
std::vector<std::string> values_of(const std::vector<std::string>& environment, const std::vector<std::string>& names);

}  // namespace agent_run
