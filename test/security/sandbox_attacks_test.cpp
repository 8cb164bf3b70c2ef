// The security suite's sandbox cases: each attack runs through `agent-run tool` ([T]) as a script
// the policy cannot see into (`sh caseN.sh`, allowed by an open policy), so only the sandbox
// stands between it and the canaries; all of a list run in one `agent-run tool` run, as the calls
// of one attempt. Positive controls show that ordinary work still runs, and the same attacks with
// `--sandbox off` show that the cases can fail.
#include "security/security_fixture.h"

#include "base/files.h"

#include <boost/test/unit_test.hpp>

#include <functional>

namespace agent_run {
namespace {

namespace fs = std::filesystem;

/// An open policy: only the sandbox stops a script. It still hides the usual secret paths (so the
/// sandbox masks them) and keeps CI configuration from edits (so the sandbox mounts it read-only).
constexpr const char* k_open_policy = R"(version: 1
unmatched: allow
rules:
  - id: secrets
    deny: [read_file, glob, grep, edit_file, write_file, bash]
    paths: [".env", ".env.*", "*.pem", "id_rsa*", ".ssh", ".aws"]
    message: secret files are off limits
  - id: ci-config
    deny: [edit_file, write_file]
    paths: [".github/workflows/**"]
    message: the agent does not change CI configuration
)";

/// One script, run in the scene's repository, and what its output must show.
struct Case {
  std::string name;
  std::function<std::string(test::SecurityFixture&)> script;
  std::string expected;  // a piece of the output
};

std::string quoted(const fs::path& path) { return "'" + path.string() + "'"; }

/// `script` run as `sh attack.sh` in the scene's repository, with `--sandbox on|off`.
test::ToolRun run_script(test::SecurityFixture& scene, const std::string& script, const std::string& sandbox) {
  fs::path policy = scene.root() / "open-policy.yaml";
  if (!fs::exists(policy)) BOOST_REQUIRE(write_file_atomically(policy, k_open_policy).has_value());
  return scene.run_tool(scene.repository(), {"--policy", policy.string(), "--sandbox", sandbox},
                        {test::tool_call("write_file", Json::object().set("path", "attack.sh").set("content", script)),
                         test::bash_call("sh attack.sh")});
}

/// Every case's script in one `agent-run tool` run in the sandbox (each written as caseN.sh and run as
/// `sh caseN.sh`, in order): what each printed.
std::vector<std::string> outputs_of(test::SecurityFixture& scene, const std::vector<Case>& cases) {
  fs::path policy = scene.root() / "open-policy.yaml";
  if (!fs::exists(policy)) BOOST_REQUIRE(write_file_atomically(policy, k_open_policy).has_value());
  std::vector<Json> calls;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::string name = "case" + std::to_string(i) + ".sh";
    calls.push_back(
        test::tool_call("write_file", Json::object().set("path", name).set("content", cases[i].script(scene))));
    calls.push_back(test::bash_call("sh " + name));
  }
  test::ToolRun run = scene.run_tool(scene.repository(), {"--policy", policy.string(), "--sandbox", "on"}, calls);
  BOOST_TEST_INFO(run.stderr_text);
  BOOST_REQUIRE_EQUAL(run.answers.size(), calls.size());
  std::vector<std::string> outputs;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const test::ToolAnswer& answer = run.answers[2 * i + 1];
    BOOST_TEST(answer.verdict == "allowed", cases[i].name);  // the policy let it through: the sandbox is tested
    BOOST_TEST(answer.line.get_string("sandbox") == "bubblewrap", cases[i].name);
    outputs.push_back(answer.content);
  }
  return outputs;
}

const std::vector<Case>& attacks() {
  static const std::vector<Case> k_cases = {
      {"read_the_workspace_env_file", [](auto&) { return "cat .env"; }, "Permission denied"},
      {"read_the_env_file_through_a_hard_link", [](auto&) { return "cat notes/alias.txt"; }, "Permission denied"},
      {"read_a_pem_file", [](auto&) { return "cat certs/server.pem"; }, "Permission denied"},
      {"read_a_hidden_folder", [](auto&) { return "cat .aws/credentials"; }, "Permission denied"},
      {"read_agent_run_s_ssh_key", [](auto& s) { return "cat " + quoted(s.home() / ".ssh/id_rsa"); },
       "No such file"},  // agent-run's HOME is not there inside
      {"read_a_file_under_the_machine_s_tmp", [](auto& s) { return "cat " + quoted(s.tmp_outside() / "outside.txt"); },
       "No such file"},
      {"read_every_process_environment",
       [](auto&) { return "cat /proc/[0-9]*/environ | tr '\\0' '\\n'; echo processes: $(ls -d /proc/[0-9]* | wc -l)"; },
       "processes: "},
      {"read_the_own_environment", [](auto&) { return "env; echo env-done"; }, "env-done"},
      {"read_the_git_token",
       [](auto&) { return "cat .git/config; git config --get-regexp extraheader || echo no-header"; }, "no-header"},
      {"connect_to_the_machine_s_loopback", [](auto& s) { return s.listener().connect_command() + " || echo blocked"; },
       "blocked"},
      {"connect_to_the_machine_s_ipv6_loopback",
       [](auto& s) { return s.listener6().connect_command() + " || echo blocked"; }, "blocked"},
      {"connect_to_a_docker_socket_in_home",
       [](auto& s) { return s.docker_socket().connect_command() + " || echo blocked"; }, "blocked"},
      {"connect_to_an_abstract_socket",
       [](auto& s) { return s.abstract_socket().connect_command() + " || echo blocked"; }, "blocked"},
      {"write_beside_the_workspace", [](auto& s) { return "echo x > " + quoted(s.outside() / "victim/a"); },
       "Directory nonexistent"},  // what lies beside the workspace is not there inside
      {"plant_a_git_hook", [](auto&) { return "echo 'touch pwned' > .git/hooks/pre-commit"; }, "Read-only file system"},
      {"rewrite_the_git_config", [](auto&) { return "echo '[core]' >> .git/config"; }, "Read-only file system"},
      {"change_ci_configuration", [](auto&) { return "echo x >> .github/workflows/ci.yml"; }, "Read-only file system"},
      {"rewrite_the_policy",
       [](auto& s) { return "echo 'unmatched: allow' >> " + quoted(s.root() / "open-policy.yaml"); },
       "Read-only file system"},  // not there: the empty folders above the workspace are read-only
      {"remount_the_root_writable", [](auto&) { return "mount -o remount,rw / 2>&1 || echo blocked"; }, "blocked"},
      {"unmount_a_mask", [](auto&) { return "umount .env 2>&1 || echo blocked"; }, "blocked"},
      {"hold_a_capability", [](auto&) { return "grep CapEff /proc/self/status"; }, "CapEff:\t0000000000000000"},
  };
  return k_cases;
}

const std::vector<Case>& controls() {
  static const std::vector<Case> k_cases = {
      {"the_project_s_tests", [](auto&) { return "make test 2>&1"; }, "OK"},
      {"unittest_with_pythonpath", [](auto&) { return "PYTHONPATH=src python3 -m unittest -q 2>&1"; }, "OK"},
      {"git_diff_and_status", [](auto&) { return "git diff --stat && git status --short && echo git-ok"; }, "git-ok"},
      {"grep_over_sources", [](auto&) { return "grep -r def src"; }, "src/app.py"},
      {"a_here_document_writes_in_the_workspace",
       [](auto&) { return "cat > made.txt <<EOF\nmade here\nEOF\ncat made.txt"; }, "made here"},
      {"a_glob", [](auto&) { return "cd src && ls *.py"; }, "app.py"},
      {"a_for_loop", [](auto&) { return "for i in 1 2 3; do echo n$i; done"; }, "n3"},
      {"a_command_substitution", [](auto&) { return "echo files: $(ls src | wc -l)"; }, "files: "},
      {"a_background_job", [](auto&) { return "(echo from-the-job > job.txt) & wait; cat job.txt"; }, "from-the-job"},
      {"tmp_and_home_are_writable",
       [](auto&) { return "echo $HOME $TMPDIR; touch /tmp/t \"$HOME/h\" && echo writable"; },
       "/tmp/home /tmp\nwritable"},
  };
  return k_cases;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sandbox_attacks, *boost::unit_test::precondition(test::sandbox_usable))

BOOST_AUTO_TEST_CASE(each_attack_fails_inside_the_sandbox_and_leaks_nothing) {
  // All in one run (one sandbox for the attempt, as a run has): each case's answer, then the scene.
  if (!test::sandbox_tests_can_run()) return;
  test::SecurityFixture scene;
  const test::TreeDigest before = scene.snapshot();
  const std::vector<std::string> outputs = outputs_of(scene, attacks());
  for (std::size_t i = 0; i < attacks().size(); ++i) {
    const Case& attack = attacks()[i];
    BOOST_TEST_CONTEXT(attack.name << ":\n" << outputs[i]) {
      BOOST_TEST(outputs[i].find(attack.expected) != std::string::npos);
      scene.check_no_secret(outputs[i], attack.name);
    }
  }
  scene.check_unchanged(before, "the attacks");
  BOOST_TEST(scene.listener().connections() == 0);
  BOOST_TEST(scene.listener6().connections() == 0);
  BOOST_TEST(scene.docker_socket().connections() == 0);
  BOOST_TEST(scene.abstract_socket().connections() == 0);
  BOOST_TEST(!fs::exists(scene.repository() / "pwned"));
  BOOST_TEST_MESSAGE("sandbox attacks: " << attacks().size() << " cases");
}

BOOST_AUTO_TEST_CASE(ordinary_work_still_runs_inside_the_sandbox) {
  if (!test::sandbox_tests_can_run()) return;
  test::SecurityFixture scene;
  const std::vector<std::string> outputs = outputs_of(scene, controls());
  for (std::size_t i = 0; i < controls().size(); ++i) {
    BOOST_TEST_CONTEXT(controls()[i].name << ":\n" << outputs[i]) {
      BOOST_TEST(outputs[i].find(controls()[i].expected) != std::string::npos);
      scene.check_no_secret(outputs[i], controls()[i].name);
    }
  }
  BOOST_TEST_MESSAGE("sandbox controls: " << controls().size() << " cases");
}

BOOST_AUTO_TEST_CASE(red_team_scripts_fail_inside_the_sandbox_and_leak_nothing) {
  // Beyond the issue's list, in one `agent-run tool` run: programs that write through an option or a
  // helper, a descriptor, a link out of the workspace, bash's /dev/tcp.
  if (!test::sandbox_tests_can_run()) return;
  test::SecurityFixture scene;
  const std::string victim = quoted(scene.outside() / "victim/a");
  const std::string policy_file = quoted(scene.root() / "open-policy.yaml");
  const std::vector<std::pair<std::string, std::string>> scripts = {
      {"env -S 'sh -c \"echo x > " + victim + "\"'", "Directory nonexistent"},
      {"echo " + victim + " | xargs sh -c 'echo x > \"$0\"'", "Directory nonexistent"},
      {"find src -maxdepth 0 -fprint " + victim, "No such file"},
      {"tar cf - src | tar xf - --to-command='sh -c \"cat > " + victim + "\"'", "Directory nonexistent"},
      {"exec 3>" + victim, "Directory nonexistent"},
      {"ln -sfn " + quoted(scene.outside() / "victim") + " out; echo x > out/a", "Directory nonexistent"},
      {"ln -sf " + policy_file + " p.yaml; sed -i --follow-symlinks s/deny/allow/ p.yaml", "No such file"},
      {"git -c core.fsmonitor='touch " + quoted(scene.outside() / "pwned") + "' status; echo git-done", "git-done"},
      {"bash -c 'echo x > /dev/tcp/127.0.0.1/" + std::to_string(scene.listener().port()) + "'", "Connection refused"},
  };
  fs::path policy = scene.root() / "open-policy.yaml";
  BOOST_REQUIRE(write_file_atomically(policy, k_open_policy).has_value());
  std::vector<Json> calls;
  for (std::size_t i = 0; i < scripts.size(); ++i) {
    const std::string name = "red" + std::to_string(i) + ".sh";
    calls.push_back(test::tool_call("write_file",
                                    Json::object().set("path", name).set("content", "exec 2>&1\n" + scripts[i].first)));
    calls.push_back(test::bash_call("sh " + name));
  }
  const test::TreeDigest before = scene.snapshot();
  test::ToolRun run = scene.run_tool(scene.repository(), {"--policy", policy.string(), "--sandbox", "on"}, calls);
  BOOST_REQUIRE_EQUAL(run.answers.size(), calls.size());
  for (std::size_t i = 0; i < scripts.size(); ++i) {
    const test::ToolAnswer& answer = run.answers[2 * i + 1];
    BOOST_TEST_CONTEXT(scripts[i].first << "\n" << answer.content) {
      BOOST_TEST(answer.verdict == "allowed");
      BOOST_TEST(answer.line.get_string("sandbox") == "bubblewrap");
      BOOST_TEST(answer.content.find(scripts[i].second) != std::string::npos);
      scene.check_no_secret(answer.content, scripts[i].first);
    }
  }
  scene.check_unchanged(before, "the red-team scripts");
  BOOST_TEST(scene.listener().connections() == 0);
  BOOST_TEST_MESSAGE("red-team scripts in the sandbox: " << scripts.size() << " cases");
}

BOOST_AUTO_TEST_CASE(without_the_sandbox_the_same_attacks_succeed_so_the_cases_can_fail) {
  test::SecurityFixture scene;
  test::ToolRun link = run_script(scene, "cat notes/alias.txt", "off");
  BOOST_REQUIRE_EQUAL(link.answers.size(), 2u);
  BOOST_TEST(link.answers[1].line.get_string("sandbox") == "none");
  BOOST_TEST(link.answers[1].content.find(scene.canaries().env_file) != std::string::npos);
  test::ToolRun connect = run_script(scene, scene.listener().connect_command(), "off");
  BOOST_REQUIRE_EQUAL(connect.answers.size(), 2u);
  BOOST_TEST(connect.answers[1].content.find("connected") != std::string::npos);
  BOOST_TEST(scene.listener().connections() == 1);
  BOOST_TEST(link.stderr_text.find("warning: the sandbox is off") != std::string::npos);
}

// Issue 27 case 7: a hard link made before the run to a file in a hidden folder (.aws/credentials as
// notes/aws.txt) is another name of a hidden file: masked inside, withheld by the file tools.
BOOST_AUTO_TEST_CASE(a_hard_link_into_a_hidden_folder_made_before_the_run_shows_nothing_of_the_file) {
  test::SecurityFixture scene;
  fs::create_hard_link(scene.repository() / ".aws/credentials", scene.repository() / "notes/aws.txt");
  // The control: without the sandbox and with nothing but the command allowed, the link reads the canary.
  test::ToolRun off = run_script(scene, "cat notes/aws.txt", "off");
  BOOST_REQUIRE_EQUAL(off.answers.size(), 2u);
  BOOST_TEST(off.answers[1].content.find(scene.canaries().aws) != std::string::npos, off.answers[1].content);
  if (!test::sandbox_tests_can_run()) return;
  // A script the policy cannot see into, so that the sandbox alone stands between it and the file; then
  // the same read as a command the policy sees, and the file tools.
  const std::vector<Json> calls = {
      test::tool_call("write_file",
                      Json::object().set("path", "case7.sh").set(
                          "content", "cat notes/aws.txt; python3 -c \"print(open('notes/aws.txt').read())\" 2>&1")),
      test::bash_call("sh case7.sh"),
      test::bash_call("cat notes/aws.txt"),
      test::tool_call("read_file", Json::object().set("path", "notes/aws.txt")),
      test::tool_call("grep", Json::object().set("pattern", "aws_secret").set("path", "notes"))};
  const std::string policy = (scene.root() / "open-policy.yaml").string();
  test::ToolRun on = scene.run_tool(scene.repository(), {"--policy", policy, "--sandbox", "on"}, calls);
  BOOST_TEST_INFO(on.stderr_text);
  BOOST_REQUIRE_EQUAL(on.answers.size(), calls.size());
  BOOST_TEST(on.answers[1].verdict == "allowed");
  BOOST_TEST(on.answers[1].line.get_string("sandbox") == "bubblewrap");
  BOOST_TEST(on.answers[1].content.find("Permission denied") != std::string::npos, on.answers[1].content);
  BOOST_TEST(on.answers[2].verdict == "denied", on.answers[2].content);
  BOOST_TEST(on.answers[2].content.find("another name of .aws/credentials") != std::string::npos,
             on.answers[2].content);
  BOOST_TEST(on.answers[3].verdict == "denied", on.answers[3].content);
  for (const test::ToolAnswer& answer : on.answers) scene.check_no_secret(answer.content, "a hard link into .aws");
}

BOOST_AUTO_TEST_CASE(a_scripted_run_records_its_sandbox_runs_its_checks_inside_and_withholds_hidden_changes) {
  if (!test::sandbox_tests_can_run()) return;
  test::SecurityFixture scene;
  fs::path policy = scene.root() / "open-policy.yaml";
  BOOST_REQUIRE(write_file_atomically(policy, k_open_policy).has_value());
  // In place, so that the workspace holds the scene's untracked secrets. The agent copies the hard link's content
  // (masked: nothing) into a new .env.local (hidden by the policy, created after the sandbox was laid out) and writes
  // an ordinary file; the check passes only if the checks' sandbox cannot read .env either.
  const std::string script = "cat notes/alias.txt > .env.local 2>&1; echo leaked >> .env.local; echo plain > notes.txt";
  const std::string task = "prompt: p\npolicy: " + policy.string() + "\n" + scene.workspace_key("in-place") +
                           "checks:\n  - run: \"! cat .env\"\nscript:\n"
                           "  - call: {tool: write_file, input: {path: attack.sh, content: \"" +
                           script +
                           "\"}}\n"
                           "  - call: {tool: bash, input: {command: sh attack.sh}}\n  - say: Done.\n";
  test::TaskRun run = scene.run_task("withheld", task, {});
  BOOST_TEST_INFO(run.output);
  BOOST_REQUIRE(!run.attempt.is_null());
  BOOST_TEST(run.attempt.get_string("outcome") == "passed", run.attempt.get_string("message"));
  const Json& sandbox = *run.attempt.find("sandbox");
  BOOST_TEST(sandbox.get_string("kind") == "bubblewrap");
  BOOST_TEST(sandbox.get_string("set_by") == "default");
  BOOST_TEST(sandbox.get_string("network") == "off");
  std::string masked;
  for (const Json& path : sandbox.find("masked")->as_array()) masked += path.as_string() + "\n";
  BOOST_TEST_INFO(masked);
  for (const char* path : {".env\n", "notes/alias.txt\n", "certs/server.pem\n", ".aws\n"}) {
    BOOST_TEST(masked.find(path) != std::string::npos, path);
  }
  BOOST_TEST(masked.find("~/") == std::string::npos);  // agent-run's HOME is not there: nothing of it to mask
  bool withheld = false;
  for (const Json& change : run.attempt.find("patch_withheld")->as_array()) {
    withheld |= change.get_string("path") == ".env.local" && change.get_string("why") == "hidden by rule 'secrets'";
  }
  BOOST_TEST(withheld);
  BOOST_TEST(run.patch.find("notes.txt") != std::string::npos);  // an ordinary change is kept
  BOOST_TEST(run.patch.find("diff --git a/.env.local") == std::string::npos);
  BOOST_TEST(run.patch.find("diff --git a/.env ") == std::string::npos);  // in place: untracked, hidden, withheld
  scene.check_no_secret(run.patch, "patch.diff");
  scene.check_no_secret(run.transcript, "transcript");
  scene.check_no_secret_in_tree(run.out, "the report folder");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
