#include "mcp/package_runners.h"
#include "base/text.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;

namespace {

/// The package `command` (words split on spaces) fetches when it starts in `cwd`, or "" for none.
std::string fetched(const std::string& command, const std::filesystem::path& cwd = "/nonexistent") {
  const std::vector<std::string> argv = split(command, ' ');
  auto package = package_fetched_at_start(argv, cwd);
  return package ? package->runner + ": " + package->package : "";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(package_runners)

BOOST_AUTO_TEST_CASE(each_runner_names_the_package_it_fetches) {
  BOOST_TEST(fetched("npx -y @modelcontextprotocol/server-memory") == "npx: @modelcontextprotocol/server-memory");
  BOOST_TEST(fetched("/usr/bin/npx --yes mcp-server@1.2 --port 3") == "npx: mcp-server@1.2");
  BOOST_TEST(fetched("npx -p @scope/pkg server-bin stdio") == "npx: @scope/pkg");
  BOOST_TEST(fetched("npx --package=@scope/pkg server-bin") == "npx: @scope/pkg");
  BOOST_TEST(fetched("npm exec -- @scope/pkg") == "npm exec: @scope/pkg");
  BOOST_TEST(fetched("pnpm dlx @scope/pkg") == "pnpm dlx: @scope/pkg");
  BOOST_TEST(fetched("bunx pkg") == "bunx: pkg");
  BOOST_TEST(fetched("uvx mcp-server-git --repository .") == "uvx: mcp-server-git");
  BOOST_TEST(fetched("uvx --from mcp-server-git==0.6 mcp-server-git") == "uvx: mcp-server-git==0.6");
  BOOST_TEST(fetched("pipx run mcp-server-fetch") == "pipx run: mcp-server-fetch");
}

BOOST_AUTO_TEST_CASE(a_command_that_runs_what_is_installed_fetches_nothing) {
  BOOST_TEST(fetched("node /opt/mcp/node_modules/@scope/pkg/dist/index.js") == "");
  BOOST_TEST(fetched("npm run server") == "");  // npm without exec
  BOOST_TEST(fetched("pnpm server") == "");
  BOOST_TEST(fetched("npx --no-install pkg") == "");
  BOOST_TEST(fetched("uvx --offline pkg") == "");
  BOOST_TEST(fetched("npx -y") == "");  // nothing named
  // npx of a package in the server's folder's node_modules runs it from there, offline.
  test::TempFolder project;
  project.write("node_modules/@scope/pkg/package.json", "{}");
  project.write("node_modules/.bin/local-tool", "#!/bin/sh\n");
  BOOST_TEST(fetched("npx -y @scope/pkg@2", project.path()) == "");
  BOOST_TEST(fetched("npx local-tool", project.path()) == "");
  BOOST_TEST(fetched("npx -y @scope/other", project.path()) == "npx: @scope/other");
}

BOOST_AUTO_TEST_CASE(the_advice_says_why_and_what_to_do_instead) {
  const std::string npm = offline_package_advice({"npx", "@scope/pkg", true});
  BOOST_TEST(npm.find("`npx` fetches @scope/pkg from the network when it starts") != std::string::npos, npm);
  BOOST_TEST(npm.find("npm install --prefix DIR @scope/pkg") != std::string::npos, npm);
  BOOST_TEST(npm.find("sandbox: off") != std::string::npos, npm);
  const std::string pypi = offline_package_advice({"uvx", "mcp-server-git", false});
  BOOST_TEST(pypi.find("uv tool install mcp-server-git") != std::string::npos, pypi);
}

BOOST_AUTO_TEST_SUITE_END()
