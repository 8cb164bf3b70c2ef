// Issue 27 case 1: a descriptor agent-run inherits from its parent (a folder opened without
// close-on-exec, as a CI step or a wrapper script may leave one) must not reach the sandboxed shell:
// through /proc/self/fd/N it opens the machine's files beneath every mask and read-only mount.
// agent-run runs here as `sh -c 'exec 7< HOME; exec agent-run tool ...'`, so fd 7 is agent-run's own
// inheritance, and the agent's bash reads HOME/.ssh/id_rsa through it.
#include "security/security_fixture.h"

#include "base/files.h"
#include "exec/process.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <sstream>

namespace agent_run {
namespace {

namespace fs = std::filesystem;

constexpr const char* k_open_policy = "version: 1\nunmatched: allow\nrules: []\n";

/// What the agent's bash printed, run by `agent-run tool --json` with `folder` open as fd 7 of agent-run.
struct InheritedRun {
  int exit_code = -1;
  std::vector<Json> lines;
  std::string err;
};

InheritedRun run_with_descriptor_7(test::SecurityFixture& scene, const fs::path& folder, const std::string& sandbox,
                                   const std::string& command) {
  const fs::path policy = scene.root() / "open-policy.yaml";
  if (!fs::exists(policy)) BOOST_REQUIRE(write_file_atomically(policy, k_open_policy).has_value());
  const fs::path calls = scene.root() / ("fd7-" + sandbox + ".jsonl");
  const fs::path err = scene.root() / ("fd7-" + sandbox + ".err");
  // A script the policy cannot see into, as in the sandbox attacks: only the descriptor's absence stops it.
  const Json write = test::tool_call("write_file", Json::object().set("path", "probe.sh").set("content", command));
  BOOST_REQUIRE(write_file_atomically(calls, write.dump() + "\n" + test::bash_call("sh probe.sh").dump() + "\n").has_value());
  std::string line = "exec 7< " + test::shell_quote(folder.string()) + "; exec";
  for (const std::string& word : {test::agent_run_binary(), std::string("tool"), std::string("--json"),
                                  std::string("--no-diagnostics"), std::string("--workspace"),
                                  scene.repository().string(), std::string("--policy"), policy.string(),
                                  std::string("--sandbox"), sandbox}) {
    line += " " + test::shell_quote(word);
  }
  line += " < " + test::shell_quote(calls.string()) + " 2> " + test::shell_quote(err.string());
  ProcessSpec spec = shell_command(line, scene.root(), std::chrono::minutes(4));
  spec.environment = scene.environment();
  auto result = run_process(spec);
  BOOST_REQUIRE(result.has_value());
  InheritedRun run;
  run.exit_code = result->exit_code;
  auto text = read_file(err);
  run.err = text ? *text : "";
  std::istringstream out(result->output);
  for (std::string json; std::getline(out, json);) {
    auto parsed = parse_json(json);
    BOOST_REQUIRE_MESSAGE(parsed.has_value(), "not JSON: " + json);
    run.lines.push_back(std::move(*parsed));
  }
  return run;
}

std::string content_of(const InheritedRun& run) {
  BOOST_REQUIRE_EQUAL(run.lines.size(), 2u);
  const Json* result = run.lines.back().find("result");
  return result ? result->get_string("content") : "";
}

/// BOOST_TEST that the probe ran and listed no descriptor but 0, 1, 2 and ls's own 3.
void check_only_standard_descriptors(const std::string& content) {
  std::size_t at = content.find("fds:");
  BOOST_REQUIRE_MESSAGE(at != std::string::npos, "the probe did not run: " + content);
  std::istringstream list(content.substr(at + 4));
  int count = 0;
  for (int fd = 0; list >> fd; ++count) BOOST_TEST(fd <= 3, "descriptor " << fd << " crossed: " << content);
  BOOST_TEST(count >= 3, content);
}

std::string probe(const std::string& relative) {
  return "cat /proc/self/fd/7/" + relative + " 2>&1; echo; echo fds: $(ls /proc/self/fd)\n";
}

BOOST_AUTO_TEST_SUITE(inherited_descriptors)

BOOST_AUTO_TEST_CASE(the_sandboxed_shell_cannot_reach_a_folder_agent_run_inherited) {
  if (!test::sandbox_tests_can_run()) return;
  test::SecurityFixture scene;
  InheritedRun run = run_with_descriptor_7(scene, scene.home(), "on", probe(".ssh/id_rsa"));
  BOOST_TEST_INFO(run.err);
  const std::string content = content_of(run);
  BOOST_TEST(run.lines.back().get_string("sandbox") == "bubblewrap");
  check_only_standard_descriptors(content);
  scene.check_no_secret(content, "the sandboxed shell's answer");
}

BOOST_AUTO_TEST_CASE(the_shell_without_the_sandbox_cannot_reach_it_either) {
  test::SecurityFixture scene;
  InheritedRun run = run_with_descriptor_7(scene, scene.home(), "off", probe(".ssh/id_rsa"));
  BOOST_TEST_INFO(run.err);
  const std::string content = content_of(run);
  check_only_standard_descriptors(content);
  scene.check_no_secret(content, "the shell's answer");
}

BOOST_AUTO_TEST_CASE(the_probe_reads_the_canary_where_the_descriptor_is_open) {
  // The positive control: the same probe, in the shell that holds fd 7, reads HOME's key.
  test::SecurityFixture scene;
  auto result = run_process(shell_command("exec 7< " + test::shell_quote(scene.home().string()) + "; " +
                                              probe(".ssh/id_rsa"),
                                          scene.root(), std::chrono::minutes(1)));
  BOOST_REQUIRE(result.has_value());
  BOOST_TEST(result->output.find(scene.canaries().ssh_key) != std::string::npos, result->output);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace agent_run
