// Issue 27 case 6: secret-looking variables by other names (GH_PAT, MYSQL_PWD, SSHPASS, CI_JOB_JWT,
// SLACK_WEBHOOK_URL) reached the agent's commands, which got every variable whose name was not on
// a deny list. The environment of the agent's commands is an allow list plus the task's env:; the
// report names what was dropped (never the values), and a dropped secret's value found anywhere
// (a file the agent reads and copies) is in no artifact.
#include "security/scripted_run_fixture.h"

#include "base/files.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdlib>

namespace agent_run {
namespace {

namespace fs = std::filesystem;

/// The variables that looked harmless to the deny list, each with a canary value.
std::vector<std::pair<std::string, std::string>> other_secrets() {
  return {{"GH_PAT", test::canary("GHPAT")},
          {"MYSQL_PWD", test::canary("MYSQLPWD")},
          {"SSHPASS", test::canary("SSHPASS")},
          {"CI_JOB_JWT", test::canary("JWT")},
          {"SLACK_WEBHOOK_URL", "https://hooks.slack.com/services/T0/B0/" + test::canary("WEBHOOK")}};
}

/// The scene with those variables in agent-run's environment (and LANG, for the control), and a
/// file in the workspace that holds GH_PAT's value, as a token copied into a config file would.
void plant(test::SecurityFixture& scene) {
  for (const auto& [name, value] : other_secrets()) scene.add_environment(name + "=" + value);
  if (std::getenv("LANG") == nullptr) scene.add_environment("LANG=C.UTF-8");
  BOOST_REQUIRE(write_file_atomically(scene.repository() / "token-copy.txt", other_secrets()[0].second + "\n").has_value());
}

/// An in-place scripted task whose agent prints its environment, reads the token file and copies
/// it into the tree; its check passes only when its own environment holds no canary and the task's
/// env: variable.
std::string printing_task(test::SecurityFixture& scene) {
  const fs::path policy = scene.root() / "open-policy.yaml";
  BOOST_REQUIRE(write_file_atomically(policy, "version: 1\nunmatched: allow\nrules: []\n").has_value());
  return "prompt: p\nmodel: script\npolicy: " + policy.string() + "\n" + scene.workspace_key("in-place") +
         "env: {TASK_SETTING: visible-setting}\ntools: [bash]\nchecks:\n"
         "  - run: test -z \"$(env | grep CANARY)\" && test \"$TASK_SETTING\" = visible-setting\n"
         "script:\n  - call: " +
         test::tool_call("bash", Json::object().set("command", "env")).dump() + "\n  - call: " +
         test::tool_call("bash", Json::object().set("command", "cat token-copy.txt")).dump() + "\n  - call: " +
         test::tool_call("bash", Json::object().set("command", "cp token-copy.txt copied.txt")).dump() +
         "\n  - say: Done.\n";
}

std::vector<std::string> dropped_of(const test::TaskRun& run) {
  std::vector<std::string> names;
  const Json* environment = run.attempt.find("environment");
  const Json* dropped = environment ? environment->find("dropped") : nullptr;
  if (dropped == nullptr || !dropped->is_array()) return names;
  for (const Json& name : dropped->as_array()) names.push_back(name.as_string());
  return names;
}

/// BOOST_TEST that no value of other_secrets() is in `text`.
void check_no_other_secret(const std::string& text, const std::string& where) {
  for (const auto& [name, value] : other_secrets()) {
    BOOST_TEST(text.find(value) == std::string::npos, where << " holds the value of " << name);
  }
}

void check_run(test::SecurityFixture& scene, const test::TaskRun& run) {
  BOOST_TEST_INFO(run.output);
  BOOST_REQUIRE(!run.attempt.is_null());
  BOOST_TEST(run.attempt.get_string("outcome") == "passed");  // the check saw no canary, and env:
  std::vector<test::Answer> answers = test::answers_of(run);
  BOOST_REQUIRE_EQUAL(answers.size(), 3u);
  const std::string& env = answers[0].content;
  check_no_other_secret(env, "env in the agent's bash");
  scene.check_no_secret(env, "env in the agent's bash");
  for (const auto& [name, value] : other_secrets()) {
    BOOST_TEST(env.find(name + "=") == std::string::npos, name << " reached the agent's bash:\n" << env);
  }
  // The positive control: what a shell needs, and the task's env:, are there.
  BOOST_TEST(env.find("PATH=") != std::string::npos, env);
  BOOST_TEST(env.find("LANG=") != std::string::npos, env);
  BOOST_TEST(env.find("TASK_SETTING=visible-setting") != std::string::npos, env);
  // The value the agent read from a file is redacted from what the model saw.
  BOOST_TEST(answers[1].content.find("[redacted]") != std::string::npos, answers[1].content);
  // The report names what was dropped, the deny list's and the allow list's.
  std::vector<std::string> dropped = dropped_of(run);
  for (const auto& [name, value] : other_secrets()) {
    BOOST_TEST(std::count(dropped.begin(), dropped.end(), name) == 1, name << " is not in environment.dropped");
  }
  BOOST_TEST(std::count(dropped.begin(), dropped.end(), "ANTHROPIC_API_KEY") == 1);
  BOOST_TEST(std::count(dropped.begin(), dropped.end(), "PATH") == 0);
  BOOST_TEST(std::count(dropped.begin(), dropped.end(), "TASK_SETTING") == 0);
  // No artifact holds a value: report.json, the transcript, patch.diff, the other reports.
  check_no_other_secret(run.output, "agent-run's output");
  check_no_other_secret(run.transcript, "the transcript");
  check_no_other_secret(run.patch, "patch.diff");
  std::error_code ec;
  for (fs::recursive_directory_iterator it(run.out, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file(ec)) {
      auto text = read_file(it->path());
      if (text) check_no_other_secret(*text, it->path().string());
    }
  }
  scene.check_no_secret_in_tree(run.out, "the report folder");
}

BOOST_AUTO_TEST_SUITE(environment_allow_list)

BOOST_AUTO_TEST_CASE(secret_looking_variables_by_other_names_never_reach_the_sandboxed_agent_or_an_artifact) {
  if (!test::sandbox_tests_can_run()) return;
  test::SecurityFixture scene;
  plant(scene);
  test::TaskRun run = scene.run_task("printenv", printing_task(scene), {"--sandbox", "on"});
  const Json* sandboxed = run.attempt.find("sandboxed");
  BOOST_TEST((sandboxed && sandboxed->is_bool() && sandboxed->as_bool()));
  check_run(scene, run);
}

BOOST_AUTO_TEST_CASE(the_allow_list_holds_for_the_agent_s_commands_without_the_sandbox_too) {
  test::SecurityFixture scene;
  plant(scene);
  check_run(scene, scene.run_task("printenv-off", printing_task(scene), {"--sandbox", "off"}));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace agent_run
