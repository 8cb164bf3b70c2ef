// Issue 27 case 8: the checks get a task's `secrets:`, the agent's test (which a check runs)
// writes one into a file, and the patch is taken after the checks. Neither patch.diff nor the
// commit nor any other file of the report folder may hold the value; the file is listed, with a
// warning.
#include "security/security_fixture.h"

#include "base/files.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

namespace agent_run {
namespace {

namespace fs = std::filesystem;

/// A scripted task over the scene's repository (in place, so the files stay to be looked at, or a
/// worktree that commits): the agent writes a test that saves SESSION_COOKIE, a secret, to
/// cookie.txt, and an ordinary change; the check runs the test.
std::string leaking_task(test::SecurityFixture& scene, const std::string& isolation, const std::string& extra) {
  const fs::path policy = scene.root() / "open-policy.yaml";
  BOOST_REQUIRE(write_file_atomically(policy, "version: 1\nunmatched: allow\nrules: []\n").has_value());
  const Json test_file = Json::object()
                             .set("path", "leak_test.sh")
                             .set("content", "printf '%s\\n' \"$SESSION_COOKIE\" > cookie.txt\ntest -s cookie.txt\n");
  const Json change = Json::object().set("path", "notes/change.txt").set("content", "an ordinary change\n");
  return "prompt: p\nmodel: script\npolicy: " + policy.string() + "\n" + scene.workspace_key(isolation) + extra +
         "secrets: [SESSION_COOKIE]\ntools: [write_file]\nchecks:\n  - run: sh leak_test.sh\n"
         "script:\n  - call: " +
         test::tool_call("write_file", test_file).dump() + "\n  - call: " + test::tool_call("write_file", change).dump() +
         "\n  - say: Done.\n";
}

bool withheld(const test::TaskRun& run, const std::string& path) {
  const Json* changes = run.attempt.find("patch_withheld");
  if (changes == nullptr || !changes->is_array()) return false;
  for (const Json& change : changes->as_array()) {
    if (change.get_string("path") == path && change.get_string("why").find("secret") != std::string::npos) return true;
  }
  return false;
}

std::string warnings_of(const test::TaskRun& run) {
  std::string text;
  if (const Json* warnings = run.attempt.find("warnings"); warnings && warnings->is_array()) {
    for (const Json& warning : warnings->as_array()) text += warning.as_string() + "\n";
  }
  return text;
}

BOOST_AUTO_TEST_SUITE(secrets_in_artifacts)

BOOST_AUTO_TEST_CASE(a_secret_a_check_wrote_into_the_workspace_stays_out_of_every_artifact) {
  test::SecurityFixture scene;
  test::TaskRun run = scene.run_task("cookie", leaking_task(scene, "in-place", ""), {"--sandbox", "off"});
  BOOST_TEST_INFO(run.output);
  BOOST_REQUIRE(!run.attempt.is_null());
  // The positive controls: the check had the secret, and it is in the tree the patch is taken from.
  BOOST_TEST(run.attempt.get_string("outcome") == "passed");
  auto written = read_file(scene.repository() / "cookie.txt");
  BOOST_REQUIRE(written.has_value());
  BOOST_TEST(*written == scene.canaries().cookie + "\n");
  // The patch holds the ordinary change, not the file with the secret, which is listed and warned of.
  BOOST_TEST(run.patch.find("an ordinary change") != std::string::npos, run.patch);
  BOOST_TEST(run.patch.find("b/cookie.txt") == std::string::npos, run.patch);
  BOOST_TEST(withheld(run, "cookie.txt"));
  BOOST_TEST(warnings_of(run).find("cookie.txt") != std::string::npos, warnings_of(run));
  scene.check_no_secret(run.output, "agent-run's output");
  scene.check_no_secret_in_tree(run.out, "the report folder");  // patch.diff, report.*, summary.md, junit, transcript
}

BOOST_AUTO_TEST_CASE(a_secret_in_the_removed_lines_of_the_patch_is_redacted) {
  // Setup (which has the secrets too) writes one into secret.cfg; a check removes the file, so the
  // patch shows its old lines: those are redacted, and the file is named in a warning.
  test::SecurityFixture scene;
  const std::string setup = "setup: [\"printf 'cookie=%s\\\\n' \\\"$SESSION_COOKIE\\\" > secret.cfg\"]\n";
  std::string task = leaking_task(scene, "in-place", setup);
  const std::string check = "  - run: sh leak_test.sh\n";
  task.replace(task.find(check), check.size(), check + "  - run: rm secret.cfg\n");
  test::TaskRun run = scene.run_task("removed", task, {"--sandbox", "off"});
  BOOST_TEST_INFO(run.output);
  BOOST_REQUIRE(!run.attempt.is_null());
  BOOST_TEST(run.patch.find("-cookie=[redacted]") != std::string::npos, run.patch);  // the line was there
  BOOST_TEST(warnings_of(run).find("secret.cfg") != std::string::npos, warnings_of(run));
  scene.check_no_secret(run.patch, "patch.diff");
  scene.check_no_secret_in_tree(run.out, "the report folder");
}

BOOST_AUTO_TEST_CASE(the_commit_of_a_passed_attempt_holds_no_secret) {
  test::SecurityFixture scene;
  test::TaskRun run =
      scene.run_task("commit", leaking_task(scene, "worktree", "commit: {branch: agent/cookie}\n"), {"--sandbox", "off"});
  BOOST_TEST_INFO(run.output);
  BOOST_REQUIRE(!run.attempt.is_null());
  BOOST_REQUIRE(run.attempt.get_string("outcome") == "passed");
  test::CommandResult files = test::run_shell("git ls-tree -r --name-only agent/cookie", scene.repository());
  BOOST_TEST(files.output.find("notes/change.txt") != std::string::npos, files.output);  // it committed
  BOOST_TEST(files.output.find("cookie.txt") == std::string::npos, files.output);
  test::CommandResult commit = test::run_shell("git show agent/cookie", scene.repository());
  BOOST_TEST(commit.output.find("an ordinary change") != std::string::npos, commit.output);
  BOOST_TEST(commit.output.find(scene.canaries().cookie) == std::string::npos, commit.output);
  scene.check_no_secret_in_tree(run.out, "the report folder");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace agent_run
