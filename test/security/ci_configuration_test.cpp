// Issue 27 case 10: only CI files that already existed were read-only in the sandbox (a mount needs
// something to mount over), so the sandboxed shell created `.gitlab-ci.yml` or
// `.github/workflows/x.yml`, and an in-place run left them on disk. A read-only path the policy's
// rule names that a command creates is now removed before the next command enters and when the
// sandbox stops, and the report warns of it. The control: without the sandbox the same commands
// leave the files there, so the test sees them when they stay.
#include "security/scripted_run_fixture.h"

#include "base/files.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

namespace agent_run {
namespace {

namespace fs = std::filesystem;

/// An in-place task under a policy that allows any command and keeps CI configuration from edits
/// (default.yaml's rule), whose agent creates CI files with the shell and then looks for them.
std::string creating_task(test::SecurityFixture& scene) {
  const fs::path policy = scene.root() / "ci-policy.yaml";
  BOOST_REQUIRE(write_file_atomically(policy, "version: 1\nunmatched: allow\nrules:\n  - id: ci-config\n"
                                              "    deny: [edit_file, write_file]\n"
                                              "    paths: [\".github/**\", \".gitlab-ci.yml\", \".circleci/**\"]\n")
                    .has_value());
  std::string script = "script:\n";
  for (const std::string& command :
       {std::string("mkdir -p .github/workflows .circleci && touch .github/workflows/x.yml .gitlab-ci.yml "
                    ".circleci/config.yml && echo made"),
        std::string("ls .github/workflows/x.yml .gitlab-ci.yml .circleci/config.yml")}) {
    script += "  - call: " + test::tool_call("bash", Json::object().set("command", command)).dump() + "\n";
  }
  return "prompt: p\nmodel: script\npolicy: " + policy.string() + "\n" + scene.workspace_key("in-place") +
         "tools: [bash]\n" + script + "  - say: Done.\n";
}

/// The task run in a scene without .github/ (the scene commits .github/workflows/ci.yml, a folder
/// read-only already; these files are new), with `--sandbox on|off`; it made both calls.
test::TaskRun run_creating(test::SecurityFixture& scene, const std::string& sandbox) {
  fs::remove_all(scene.repository() / ".github");
  test::TaskRun run = scene.run_task("ci-create-" + sandbox, creating_task(scene), {"--sandbox", sandbox});
  BOOST_TEST_INFO(run.output);
  BOOST_REQUIRE_EQUAL(test::answers_of(run).size(), 2u);
  return run;
}

std::string warnings_of(const test::TaskRun& run) {
  std::string text;
  const Json* warnings = run.attempt.find("warnings");
  if (warnings && warnings->is_array()) {
    for (const Json& warning : warnings->as_array()) text += warning.as_string() + "\n";
  }
  return text;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ci_configuration)

BOOST_AUTO_TEST_CASE(ci_configuration_a_sandboxed_command_creates_is_removed_and_reported) {
  if (!test::sandbox_tests_can_run()) return;
  test::SecurityFixture scene;
  test::TaskRun run = run_creating(scene, "on");
  std::vector<test::Answer> answers = test::answers_of(run);
  BOOST_TEST(answers[0].content.find("made") != std::string::npos, answers[0].content);  // the shell could write
  for (const char* file : {".github/workflows/x.yml", ".gitlab-ci.yml", ".circleci/config.yml"}) {
    BOOST_TEST(answers[1].content.find(std::string(file) + "': No such file or directory") != std::string::npos,
               answers[1].content);
    BOOST_TEST(!fs::exists(scene.repository() / file), file << " is still in the in-place workspace");
  }
  const std::string warnings = warnings_of(run);
  BOOST_TEST(warnings.find("removed .gitlab-ci.yml, which a command created: rule 'ci-config'") != std::string::npos,
             warnings);
  BOOST_TEST(warnings.find("removed .github") != std::string::npos, warnings);
  BOOST_TEST(run.patch.find(".gitlab-ci.yml") == std::string::npos, run.patch);
}

BOOST_AUTO_TEST_CASE(without_the_sandbox_the_same_commands_leave_the_ci_files_there) {
  test::SecurityFixture scene;
  test::TaskRun run = run_creating(scene, "off");
  std::vector<test::Answer> answers = test::answers_of(run);
  BOOST_TEST(answers[1].content.find("No such file") == std::string::npos, answers[1].content);
  BOOST_TEST(fs::exists(scene.repository() / ".gitlab-ci.yml"));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
