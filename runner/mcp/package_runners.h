#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// A stdio server's command that fetches its package when it starts (`npx -y @scope/server`,
/// `uvx tool`, `pnpm dlx pkg`): the runner's name and the package, for an error that says why the
/// server cannot start in a sandbox without the network and what to do instead.
struct FetchedPackage {
  std::string runner;    // as the user would type it: "npx", "pnpm dlx", "uvx"
  std::string package;   // "@modelcontextprotocol/server-memory", "mcp-server-git==0.6"
  bool from_npm = true;  // else from PyPI
};

/// The package `argv` fetches when it starts, or nullopt: not a package runner, told to stay offline
/// (`npx --no-install`, `uvx --offline`), or npx of a package installed in `cwd`'s node_modules.
std::optional<FetchedPackage> package_fetched_at_start(const std::vector<std::string>& argv,
                                                       const std::filesystem::path& cwd);

/// Why a server that fetches `package` cannot start in a sandbox without the network, and the fix.
std::string offline_package_advice(const FetchedPackage& package);

}  // namespace agent_run
