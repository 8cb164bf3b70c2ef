#include "exec/child_environment.h"

#include "base/environment_names.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <optional>

namespace agent_run {

namespace {

/// Variables that reach outside the machine's file system and network rules (agents and their
/// sockets, container and cluster endpoints) or steer the CI job's later steps.
constexpr std::array<std::string_view, 18> k_never_passed = {"SSH_AUTH_SOCK",       "SSH_AGENT_PID",
                                                             "GPG_AGENT_INFO",      "DBUS_SESSION_BUS_ADDRESS",
                                                             "XDG_RUNTIME_DIR",     "KRB5CCNAME",
                                                             "DOCKER_HOST",         "DOCKER_CONFIG",
                                                             "KUBECONFIG",          "GITHUB_ENV",
                                                             "GITHUB_PATH",         "GITHUB_OUTPUT",
                                                             "GITHUB_STATE",        "GITHUB_STEP_SUMMARY",
                                                             "ACTIONS_RUNTIME_URL", "ACTIONS_CACHE_URL",
                                                             "ACTIONS_RESULTS_URL", "ACTIONS_ID_TOKEN_REQUEST_URL"};

/// Dropped inside the sandbox: they point at the machine's HOME or at a proxy it cannot reach.
constexpr std::array<std::string_view, 11> k_not_in_sandbox = {
    "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "http_proxy", "https_proxy",
    "HTTP_PROXY",      "HTTPS_PROXY",    "ALL_PROXY",     "all_proxy",      "OLDPWD"};

/// Tool roots that a HOME implies: kept pointing at the machine's HOME when they exist there.
struct ToolRoot {
  std::string_view name;
  std::string_view folder;  // under the machine's HOME
};
constexpr std::array<ToolRoot, 5> k_tool_roots = {ToolRoot{"PYENV_ROOT", ".pyenv"}, ToolRoot{"RUSTUP_HOME", ".rustup"},
                                                  ToolRoot{"NVM_DIR", ".nvm"}, ToolRoot{"SDKMAN_DIR", ".sdkman"},
                                                  ToolRoot{"GOMODCACHE", "go/pkg/mod"}};

/// Variables that name a folder of a tool's installation or its packages (GOPATH a list of them).
constexpr std::array<std::string_view, 10> k_tool_root_names = {"GOROOT",     "GOPATH",      "GOMODCACHE", "CARGO_HOME",
                                                                "RUSTUP_HOME", "PYENV_ROOT", "VIRTUAL_ENV", "NVM_DIR",
                                                                "SDKMAN_DIR", "JAVA_HOME"};

/// The allow list, by exact name: a shell's and the ordinary tools' variables, then the tool roots
/// and language settings that carry no secret, then agent-run's own markers (the process tables'
/// and the scratch folder's, which find what a command left running).
constexpr std::array<std::string_view, 36> k_allowed = {
    "PATH",        "LANG",         "LANGUAGE",          "TERM",          "TZ",           "HOME",
    "USER",        "LOGNAME",      "SHELL",             "TMPDIR",        "PWD",          "COLUMNS",
    "LINES",       "CI",           "RUNNER_OS",         "RUNNER_ARCH",   "GOROOT",       "GOPATH",
    "GOFLAGS",     "GO111MODULE",  "GOTOOLCHAIN",       "GOMODCACHE",    "CARGO_HOME",   "RUSTUP_HOME",
    "RUSTUP_TOOLCHAIN", "PYENV_ROOT", "VIRTUAL_ENV",    "NVM_DIR",       "SDKMAN_DIR",   "JAVA_HOME",
    "NO_COLOR",    "COLORTERM",    "SOURCE_DATE_EPOCH", "AGENT_RUN_ATTEMPT", "AGENT_RUN_JOB", "AGENT_RUN_SCRATCH"};

/// Allowed too, but only beside agent-run (web_search, and the agent's commands with the sandbox
/// off): the sandbox drops them again (k_not_in_sandbox) but for the proxies' exceptions.
constexpr std::array<std::string_view, 12> k_allowed_beside = {
    "http_proxy", "https_proxy",    "HTTP_PROXY",     "HTTPS_PROXY",   "ALL_PROXY",     "all_proxy",
    "no_proxy",   "NO_PROXY",       "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"};

/// The allow list, by prefix: the locale's categories, GitHub's job facts, Python's settings; a
/// name among them that looks secret (GITHUB_TOKEN) is not allowed.
constexpr std::array<std::string_view, 3> k_allowed_prefixes = {"LC_", "GITHUB_", "PYTHON"};

std::string_view name_of(std::string_view entry) { return entry.substr(0, entry.find('=')); }

std::string_view value_of(std::string_view entry) {
  std::size_t equals = entry.find('=');
  return equals == std::string_view::npos ? std::string_view() : entry.substr(equals + 1);
}

bool listed(std::string_view name, const auto& names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::optional<std::string> lookup(const std::vector<std::string>& environment, std::string_view name) {
  for (const std::string& entry : environment) {
    if (name_of(entry) == name) return std::string(value_of(entry));
  }
  return std::nullopt;
}

/// The sandbox's HOME and TMPDIR, and the tool roots the machine's HOME held.
void move_into_sandbox(std::vector<std::string>& environment) {
  std::optional<std::string> home = lookup(environment, "HOME");
  std::erase_if(environment, [](const std::string& entry) {
    std::string_view name = name_of(entry);
    return name == "HOME" || name == "TMPDIR" || listed(name, k_not_in_sandbox);
  });
  for (const ToolRoot& root : k_tool_roots) {
    std::error_code ec;
    if (!home || lookup(environment, root.name)) continue;
    std::filesystem::path folder = std::filesystem::path(*home) / root.folder;
    if (std::filesystem::is_directory(folder, ec))
      environment.push_back(std::string(root.name) + "=" + folder.string());
  }
  environment.push_back(std::string("HOME=") + k_sandbox_home);
  environment.push_back("TMPDIR=/tmp");
}

}  // namespace

bool allowed_for_commands(std::string_view name) {
  if (listed(name, k_allowed) || listed(name, k_allowed_beside)) return true;
  return !looks_secret(name) && !listed(name, k_never_passed) &&
         std::any_of(k_allowed_prefixes.begin(), k_allowed_prefixes.end(),
                     [&](std::string_view prefix) { return name.starts_with(prefix); });
}

std::vector<std::string> child_environment(const ChildEnvironmentSpec& spec) {
  const bool allow_list = spec.task_secrets == TaskSecrets::withheld || spec.place == ChildPlace::sandbox;
  std::vector<std::string> environment;
  for (const std::string& entry : spec.base) {
    std::string_view name = name_of(entry);
    bool task_secret = listed(name, spec.secrets);
    if (task_secret && spec.task_secrets == TaskSecrets::withheld) continue;
    if (!task_secret && looks_secret(name, value_of(entry))) continue;
    if (listed(name, k_never_passed)) continue;
    if (allow_list && !task_secret && !listed(name, spec.task_env) && !allowed_for_commands(name)) continue;
    environment.push_back(entry);
  }
  if (spec.place == ChildPlace::sandbox) move_into_sandbox(environment);
  return environment;
}

std::vector<std::string> moved_into_sandbox(std::vector<std::string> environment) {
  move_into_sandbox(environment);
  return environment;
}

std::vector<std::pair<std::string, std::filesystem::path>> tool_root_folders(const std::vector<std::string>& environment) {
  std::vector<std::pair<std::string, std::filesystem::path>> folders;
  for (const std::string& entry : environment) {
    std::string_view name = name_of(entry);
    if (!listed(name, k_tool_root_names)) continue;
    std::string_view value = value_of(entry);
    for (std::size_t start = 0; start <= value.size();) {
      std::size_t end = std::min(value.find(':', start), value.size());
      std::string_view folder = value.substr(start, end - start);
      if (folder.starts_with('/')) folders.emplace_back(std::string(name), std::filesystem::path(folder).lexically_normal());
      start = end + 1;
    }
  }
  return folders;
}

std::vector<std::string> values_of(const std::vector<std::string>& environment, const std::vector<std::string>& names) {
  std::vector<std::string> values;
  for (const std::string& entry : environment) {
    if (listed(name_of(entry), names) && !value_of(entry).empty()) values.emplace_back(value_of(entry));
  }
  return values;
}

}  // namespace agent_run
