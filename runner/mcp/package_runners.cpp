#include "mcp/package_runners.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace agent_run {

namespace {

namespace fs = std::filesystem;

/// One way of running a package that fetches it first.
struct PackageRunner {
  std::string_view program;     // argv[0]'s file name
  std::string_view subcommand;  // argv[1] when the program needs one ("dlx"), else empty
  bool from_npm;
};

constexpr std::array k_runners = {
    PackageRunner{"npx", "", true},     PackageRunner{"pnpx", "", true},    PackageRunner{"bunx", "", true},
    PackageRunner{"npm", "exec", true}, PackageRunner{"pnpm", "dlx", true}, PackageRunner{"yarn", "dlx", true},
    PackageRunner{"bun", "x", true},    PackageRunner{"uvx", "", false},    PackageRunner{"pipx", "run", false},
};

/// Options of the runners above that take the next word as their value.
bool takes_value(std::string_view option) {
  return option == "-p" || option == "--package" || option == "-c" || option == "--call" || option == "--from" ||
         option == "--with" || option == "--python" || option == "--cache" || option == "--registry" ||
         option == "--spec";
}

/// Options that keep the runner from fetching anything.
bool stays_offline(std::string_view option) { return option == "--no-install" || option == "--offline"; }

/// "@scope/name@1.2.3" -> "@scope/name"; "name@latest" -> "name".
std::string npm_name(std::string_view spec) {
  std::size_t at = spec.find('@', spec.starts_with('@') ? 1 : 0);
  return std::string(spec.substr(0, at));
}

bool installed_in(const fs::path& cwd, const std::string& package) {
  std::error_code ec;
  return fs::exists(cwd / "node_modules" / npm_name(package) / "package.json", ec) ||
         fs::exists(cwd / "node_modules" / ".bin" / fs::path(npm_name(package)).filename(), ec);
}

}  // namespace

std::optional<FetchedPackage> package_fetched_at_start(const std::vector<std::string>& argv, const fs::path& cwd) {
  if (argv.empty()) return std::nullopt;
  const std::string program = fs::path(argv[0]).filename().string();
  auto runner = std::find_if(k_runners.begin(), k_runners.end(), [&](const PackageRunner& candidate) {
    return candidate.program == program &&
           (candidate.subcommand.empty() || (argv.size() > 1 && argv[1] == candidate.subcommand));
  });
  if (runner == k_runners.end()) return std::nullopt;
  FetchedPackage fetched;
  fetched.runner =
      std::string(runner->program) + (runner->subcommand.empty() ? "" : " " + std::string(runner->subcommand));
  fetched.from_npm = runner->from_npm;
  for (std::size_t i = runner->subcommand.empty() ? 1 : 2; i < argv.size(); ++i) {
    const std::string& word = argv[i];
    if (word == "--") {
      if (fetched.package.empty() && i + 1 < argv.size()) fetched.package = argv[i + 1];
      break;
    }
    if (stays_offline(word)) return std::nullopt;
    if (!word.starts_with('-')) {
      if (fetched.package.empty()) fetched.package = word;
      break;  // the package (or its program), then the server's own arguments
    }
    const std::size_t equals = word.find('=');
    const std::string option = word.substr(0, equals);
    if ((option == "-p" || option == "--package" || option == "--from") && fetched.package.empty()) {
      if (equals != std::string::npos) fetched.package = word.substr(equals + 1);
      else if (i + 1 < argv.size()) fetched.package = argv[i + 1];
    }
    if (equals == std::string::npos && takes_value(option)) ++i;
  }
  if (fetched.package.empty()) return std::nullopt;
  if (fetched.from_npm && installed_in(cwd, fetched.package)) return std::nullopt;
  return fetched;
}

std::string offline_package_advice(const FetchedPackage& package) {
  const std::string install = package.from_npm ? "(`npm install --prefix DIR " + package.package +
                                                     "`) and make DIR/node_modules/.bin/NAME the server's command"
                                               : "(`uv tool install " + package.package + "` or `pipx install " +
                                                     package.package + "`) and make its program the server's command";
  return "`" + package.runner + "` fetches " + package.package +
         " from the network when it starts, and the sandbox has no network (network: off): install it once "
         "outside the sandbox " +
         install +
         " (the sandbox shows a program's folder), or give the server "
         "`sandbox: off` (docs/mcp.md, \"Servers from npm and PyPI\")";
}

}  // namespace agent_run
