// Issue 27 case 4: actions/checkout keeps its token in a file under $RUNNER_TEMP that the
// repository's .git/config pulls in with includeIf. The sandbox's sanitized git config must drop
// the include, so git inside the sandbox never reads the token; git itself keeps working.
#include "security/security_fixture.h"

#include "base/files.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

namespace agent_run {
namespace {

namespace fs = std::filesystem;

/// The scene's repository with a CI checkout's token file included by its .git/config, as
/// actions/checkout v5 writes them; returns the token.
std::string include_a_checkout_token(test::SecurityFixture& scene) {
  const std::string token = test::canary("CHECKOUT");
  const fs::path runner_temp = scene.root() / "runner-temp";
  const fs::path token_file = runner_temp / "git-credentials-0f1e.config";
  fs::create_directories(runner_temp);
  BOOST_REQUIRE(write_file_atomically(token_file, "[http \"https://github.com/\"]\n\textraheader = AUTHORIZATION: basic " +
                                                      token + "\n")
                    .has_value());
  const fs::path config = scene.repository() / ".git" / "config";
  auto text = read_file(config);
  BOOST_REQUIRE(text.has_value());
  BOOST_REQUIRE(write_file_atomically(config, *text + "[includeIf \"gitdir:" + (scene.repository() / ".git").string() +
                                                  "\"]\n\tpath = " + token_file.string() +
                                                  "\n[include]\n\tpath = " + token_file.string() + "\n")
                    .has_value());
  return token;
}

BOOST_AUTO_TEST_SUITE(git_config_includes)

BOOST_AUTO_TEST_CASE(git_outside_the_sandbox_reads_the_included_token) {
  // The positive control: git follows both includes, so the token is there to be read.
  test::SecurityFixture scene;
  const std::string token = include_a_checkout_token(scene);
  test::CommandResult listed = test::run_shell("git config --list", scene.repository());
  BOOST_TEST(listed.output.find(token) != std::string::npos, listed.output);
}

BOOST_AUTO_TEST_CASE(git_in_the_sandbox_never_reads_an_included_file) {
  if (!test::sandbox_tests_can_run()) return;
  test::SecurityFixture scene;
  const std::string token = include_a_checkout_token(scene);
  const fs::path policy = scene.root() / "open-policy.yaml";
  BOOST_REQUIRE(write_file_atomically(policy, "version: 1\nunmatched: allow\nrules: []\n").has_value());
  test::ToolRun run =
      scene.run_tool(scene.repository(), {"--policy", policy.string(), "--sandbox", "on"},
                     {test::bash_call("git config --list --show-origin; git var -l; git status --short | head -n 3")});
  BOOST_TEST_INFO(run.stderr_text);
  BOOST_REQUIRE_EQUAL(run.answers.size(), 1u);
  const test::ToolAnswer& answer = run.answers.front();
  BOOST_TEST(answer.line.get_string("sandbox") == "bubblewrap");
  BOOST_TEST(answer.content.find("core.repositoryformatversion=0") != std::string::npos, answer.content);  // git works
  BOOST_TEST(answer.content.find(token) == std::string::npos, answer.content);
  BOOST_TEST(answer.content.find("git-credentials-0f1e.config") == std::string::npos, answer.content);
  scene.check_no_secret(answer.content, "git in the sandbox");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace agent_run
