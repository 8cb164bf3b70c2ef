// Issue 27 cases 11 and 12: committed files that the policy hides are masked in the sandbox. git
// there must keep working (before: `git diff` failed with "cannot hash" on the unreadable mask and
// `git status` called them modified) and must not print their committed content (before: a masked
// folder looked deleted, so a plain `git diff` printed the whole committed secret).
#include "security/security_fixture.h"

#include "base/files.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

namespace agent_run {
namespace {

namespace fs = std::filesystem;

/// Commits the scene's .aws/credentials and a config/.env.production holding `secret`: both hidden
/// by the default policy, both tracked.
void commit_hidden_files(test::SecurityFixture& scene, const std::string& secret) {
  BOOST_REQUIRE(write_file_atomically(scene.repository() / "config" / ".env.production", "DB_PASSWORD=" + secret + "\n")
                    .has_value());
  test::CommandResult committed = test::run_shell(
      "git add -f .aws/credentials config/.env.production && git -c user.name=test -c user.email=test@example.invalid "
      "commit -q -m 'commit the secrets'",
      scene.repository());
  BOOST_REQUIRE_MESSAGE(committed.exit_code == 0, committed.output);
}

const char* const k_git_commands =
    "echo more >> README.md; git diff; echo diff-exit=$?; git status --porcelain; echo status-exit=$?";

BOOST_AUTO_TEST_SUITE(git_with_hidden_committed_files)

BOOST_AUTO_TEST_CASE(outside_the_sandbox_git_diff_shows_a_changed_committed_secret) {
  // The positive control: the secrets are tracked, so a change to them shows in git diff.
  test::SecurityFixture scene;
  commit_hidden_files(scene, scene.canaries().committed);
  BOOST_REQUIRE(write_file_atomically(scene.repository() / ".aws" / "credentials", "").has_value());
  test::CommandResult diff = test::run_shell(k_git_commands, scene.repository());
  BOOST_TEST(diff.output.find(scene.canaries().aws) != std::string::npos, diff.output);
  BOOST_TEST(diff.output.find(" M .aws/credentials") != std::string::npos, diff.output);
}

BOOST_AUTO_TEST_CASE(git_diff_and_status_work_in_the_sandbox_and_say_nothing_of_hidden_committed_files) {
  if (!test::sandbox_tests_can_run()) return;
  test::SecurityFixture scene;
  commit_hidden_files(scene, scene.canaries().committed);
  test::ToolRun run = scene.run_tool(scene.repository(), {"--policy", scene.policy("default").string(), "--sandbox", "on"},
                                     {test::bash_call(k_git_commands)});
  BOOST_TEST_INFO(run.stderr_text);
  BOOST_REQUIRE_EQUAL(run.answers.size(), 1u);
  const test::ToolAnswer& answer = run.answers.front();
  BOOST_TEST(answer.line.get_string("sandbox") == "bubblewrap");
  BOOST_TEST(answer.content.find("diff-exit=0") != std::string::npos, answer.content);
  BOOST_TEST(answer.content.find("status-exit=0") != std::string::npos, answer.content);
  BOOST_TEST(answer.content.find("+more") != std::string::npos, answer.content);  // git diff still works
  BOOST_TEST(answer.content.find(" M README.md") != std::string::npos, answer.content);
  BOOST_TEST(answer.content.find("cannot hash") == std::string::npos, answer.content);
  BOOST_TEST(answer.content.find(".aws/credentials") == std::string::npos, answer.content);
  BOOST_TEST(answer.content.find(".env.production") == std::string::npos, answer.content);
  scene.check_no_secret(answer.content, "git in the sandbox");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace agent_run
