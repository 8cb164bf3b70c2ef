// The policy layer's share of the security suite: the attacks of issue 17 that a policy must stop,
// run for real through `agent-run tool --json` against the canary scene (security_fixture), with
// each stock policy's rules outside the sandbox (its copy with `sandbox: off`), and with the stock
// policy as written (the sandbox on) for the attacks a policy denies in both modes. Each run asserts
// every attack was denied (or, for the file tools, answered without the hidden files), that no
// canary reached any answer, that nothing outside the workspace changed, and that no connection
// reached the loopback listener; positive controls must keep working.
#include "policy/policy_loader.h"
#include "security/security_fixture.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace agent_run {

namespace {

namespace fs = std::filesystem;

enum class Expect { denied, withheld, allowed };
enum class Modes { both, off_only, on_only };

/// One call of the suite and what must come of it.
struct Attack {
  std::string label;
  Json call;
  Expect expect;
  Modes modes = Modes::both;
};

/// The stock policy `name` as the scene has it, with `sandbox: off` and without `sandboxed_bash`
/// (which needs the sandbox): what its rules decide when the sandbox is off.
fs::path without_the_sandbox(const test::SecurityFixture& scene, const std::string& name) {
  std::ifstream in(scene.policy(name));
  std::stringstream text;
  text << in.rdbuf();
  std::string yaml = std::regex_replace(text.str(), std::regex("\nsandbox: [^\n]*"), "\nsandbox: off");
  yaml = std::regex_replace(yaml, std::regex("\nsandboxed_bash: allow"), "");
  fs::path file = scene.root() / "policies" / (name + "-off.yaml");
  std::ofstream(file) << yaml;
  // What the copy says, read by the runner's own loader: a stock policy that writes either key
  // another way (a block mapping, a comment after it) would otherwise keep its sandbox unseen, and
  // the "outside the sandbox" runs would run inside it.
  auto loaded = load_policy_file(file);
  BOOST_REQUIRE_MESSAGE(loaded.has_value(), file.string() << ": " << (loaded ? std::string() : loaded.error().message));
  BOOST_REQUIRE_MESSAGE(loaded->sandbox && loaded->sandbox->mode == SandboxMode::off,
                        file.string() << ": the copy of " << name << " does not turn the sandbox off");
  BOOST_REQUIRE_MESSAGE(loaded->sandboxed_bash == SandboxedBash::rules,
                        file.string() << ": the copy of " << name << " still has sandboxed_bash: allow");
  BOOST_REQUIRE_MESSAGE(loaded->rules.size() == load_policy_file(scene.policy(name)).value().rules.size(),
                        file.string() << ": the copy of " << name << " lost rules");
  return file;
}

Json input(const std::string& key, const std::string& value) { return Json::object().set(key, value); }

/// The attacks every stock policy must stop (and the controls it must let through).
std::vector<Attack> attacks(test::SecurityFixture& scene) {
  const std::string home = scene.home().string();
  const std::string outside = scene.outside().string();
  const std::string long_git = std::string(".") + [] {
    std::string path;
    while (path.size() < 4100) path += "/x/..";
    return path;
  }() + "/.git";
  return {
      // git's options that write files or run programs
      {"git --output into HOME",
       test::bash_call("git log -1 --output=" + home + "/.gitconfig '--format=format:[core]%n%x09fsmonitor = touch " +
                       outside + "/pwned'"),
       Expect::denied},
      {"git --output into CI", test::bash_call("git diff --output=.github/workflows/ci.yml"), Expect::denied},
      {"git --output abbreviated", test::bash_call("git log --outp=" + outside + "/x"), Expect::denied},
      {"git -c pager", test::bash_call("git -c core.pager='touch " + outside + "/pwned' log -p"), Expect::denied},
      {"git --ext-diff", test::bash_call("git diff --ext-diff HEAD~1"), Expect::denied},
      {"git --textconv", test::bash_call("git show --textconv HEAD"), Expect::denied},
      {"git --git-dir", test::bash_call("git --git-dir=" + outside + " log"), Expect::denied},
      {"git archive", test::bash_call("git archive HEAD"), Expect::denied},
      {"git config", test::bash_call("git config --list"), Expect::denied},
      // secrets through the shell
      {"cat .env", test::bash_call("cat .env"), Expect::denied},
      {"cat through ..", test::bash_call("cat src/../.env"), Expect::denied},
      {"a hard link to .env", test::bash_call("cat notes/alias.txt"), Expect::denied},
      {"grep -r over the workspace", test::bash_call("grep -r API_KEY ."), Expect::denied, Modes::off_only},
      {"diff -r against an empty folder", test::bash_call("diff -r -N . " + outside + "/victim"), Expect::denied,
       Modes::off_only},
      {"tar of the workspace", test::bash_call("tar cf - . | head -c 100"), Expect::denied, Modes::off_only},
      {"git show REV:path of a committed secret", test::bash_call("git show HEAD~1:deploy/.env.committed"),
       Expect::denied},
      {"git show of the untracked .env", test::bash_call("git show HEAD:.env"), Expect::denied},
      {"git log -p with a pathspec glob", test::bash_call("git log -p -- '.e*'"), Expect::denied},
      {"a secret after =", test::bash_call("grep --file=x=.env src"), Expect::denied},
      {"a secret after ,", test::bash_call("cat src/app.py,.env"), Expect::denied},
      {"HOME's ssh key", test::bash_call("cat " + home + "/.ssh/id_rsa"), Expect::denied},
      // /proc and /dev/fd name the command, not agent-run: denied as paths outside the sandbox
      {"/proc/self/environ", test::bash_call("cat /proc/self/environ"), Expect::denied, Modes::off_only},
      {"/proc/self/status", test::bash_call("grep PPid /proc/self/status"), Expect::denied, Modes::off_only},
      {"/proc/self/cwd/..", test::bash_call("cat /proc/self/cwd/../README.md"), Expect::denied, Modes::off_only},
      {"/proc/1", test::bash_call("cat /proc/1/environ"), Expect::denied, Modes::off_only},
      {"/dev/fd", test::bash_call("cat /dev/fd/3"), Expect::denied, Modes::off_only},
      // test runners' and build tools' options that write or run other code
      {"pytest --basetemp over 4,096 bytes", test::bash_call("python3 -m pytest --basetemp=" + long_git),
       Expect::denied},
      {"pytest --override-ini", test::bash_call("python3 -m pytest --override-ini=cache_dir=.git/x"), Expect::denied},
      {"pytest --basetemp outside", test::bash_call("python3 -m pytest --basetemp=" + outside + "/victim"),
       Expect::denied},
      {"pytest -p", test::bash_call("pytest -p evil"), Expect::denied},
      {"pytest --junitxml", test::bash_call("pytest --junitxml=" + outside + "/j.xml"), Expect::denied},
      {"make --eval", test::bash_call("make '--eval=x: ; touch " + outside + "/pwned' x"), Expect::denied},
      {"make -f", test::bash_call("make -f " + outside + "/evil.mk"), Expect::denied},
      {"make -C", test::bash_call("make -C " + outside), Expect::denied},
      {"make SHELL=", test::bash_call("make SHELL=" + outside + "/sh test"), Expect::denied},
      {"go test -exec", test::bash_call("go test -exec=" + outside + "/evil ./..."), Expect::denied},
      {"cargo --config", test::bash_call("cargo test --config 'target.x.runner=\"touch " + outside + "/c\"'"),
       Expect::denied},
      {"npm --script-shell", test::bash_call("npm test --script-shell=" + outside + "/evil.sh"), Expect::denied},
      {"ctest -S", test::bash_call("ctest -S " + outside + "/evil.cmake"), Expect::denied},
      {"the network", test::bash_call("curl -s http://127.0.0.1:" + std::to_string(scene.listener().port()) + "/"),
       Expect::denied},
      // red-team cases beyond the list
      {"git -c core.fsmonitor", test::bash_call("git -c core.fsmonitor='touch " + outside + "/pwned' status"),
       Expect::denied},
      {"git worktree add beside the workspace", test::bash_call("git worktree add ../wt-escape"), Expect::denied},
      {"sed -i on the policy", test::bash_call("sed -i s/deny/allow/ " + scene.policy("default").string()),
       Expect::denied},
      {"env -S", test::bash_call("env -S 'sh -c \"echo x > " + outside + "/victim/a\"'"), Expect::denied,
       Modes::off_only},
      {"xargs sh -c", test::bash_call("echo " + outside + "/victim/a | xargs sh -c 'echo x > \"$0\"'"), Expect::denied,
       Modes::off_only},
      {"find -fprint", test::bash_call("find src -maxdepth 0 -fprint " + outside + "/victim/a"), Expect::denied,
       Modes::off_only},
      {"tar --to-command",
       test::bash_call("tar cf - src | tar xf - --to-command='sh -c \"cat > " + outside + "/victim/b\"'"),
       Expect::denied, Modes::off_only},
      {"exec 3>", test::bash_call("exec 3>" + outside + "/victim/fd"), Expect::denied, Modes::off_only},
      {"bash's /dev/tcp",
       test::bash_call("bash -c 'echo x > /dev/tcp/127.0.0.1/" + std::to_string(scene.listener().port()) + "'"),
       Expect::denied, Modes::off_only},
      {"ln -s out of the workspace", test::bash_call("ln -s " + outside + "/victim out"), Expect::denied,
       Modes::off_only},
      // the file tools
      {"read_file .env", test::tool_call("read_file", input("path", ".env")), Expect::denied},
      {"read_file a hard link to .env", test::tool_call("read_file", input("path", "notes/alias.txt")), Expect::denied},
      {"read_file a key", test::tool_call("read_file", input("path", "certs/server.pem")), Expect::denied},
      {"write_file a CI action",
       test::tool_call("write_file",
                       Json::object().set("path", ".github/actions/x/action.yml").set("content", "runs: {}\n")),
       Expect::denied},
      {"edit_file a workflow",
       test::tool_call(
           "edit_file",
           Json::object().set("path", ".github/workflows/ci.yml").set("old", "push").set("new", "pull_request")),
       Expect::denied},
      {"grep the workspace", test::tool_call("grep", input("pattern", "CANARY")), Expect::withheld},
      {"grep '.'", test::tool_call("grep", Json::object().set("pattern", "CANARY").set("path", ".")), Expect::withheld},
      {"grep a glob", test::tool_call("grep", Json::object().set("pattern", "CANARY").set("glob", "**")),
       Expect::withheld},
      {"grep .aws", test::tool_call("grep", Json::object().set("pattern", "CANARY").set("path", ".aws")),
       Expect::denied},
      {"grep certs/", test::tool_call("grep", Json::object().set("pattern", "CANARY").set("path", "certs")),
       Expect::withheld},
      {"glob everything", test::tool_call("glob", input("pattern", "**/*")), Expect::withheld},
      // positive controls
      {"the project's tests", test::bash_call("python3 -m unittest -q"), Expect::allowed},
      {"git diff", test::bash_call("git diff HEAD~1 --stat"), Expect::allowed},
      {"grep -r over sources", test::bash_call("grep -rn def src"), Expect::allowed},
      {"make test", test::bash_call("make test"), Expect::allowed},
      {"read a source", test::tool_call("read_file", input("path", "src/app.py")), Expect::allowed},
      {"PYTHONPATH=src", test::bash_call("PYTHONPATH=src python3 -m unittest discover -s tests -q"), Expect::allowed,
       Modes::on_only},
      {"a here-document writes a file", test::bash_call("cat > src/here.py <<'EOF'\nx = 1\nEOF\ncat src/here.py"),
       Expect::allowed, Modes::on_only},
  };
}

/// Runs the attacks of `mode` under `policy` and checks each answer and the scene.
/// `read_only`: the controls that change or build something are left out (the policy allows reads only).
std::size_t run_attacks(test::SecurityFixture& scene, const fs::path& policy, Modes mode, bool read_only = false) {
  std::vector<Attack> chosen;
  for (Attack& attack : attacks(scene)) {
    const bool builds = attack.label == "the project's tests" || attack.label == "make test";
    if (read_only && builds) continue;
    if (attack.modes == Modes::both || attack.modes == mode) chosen.push_back(std::move(attack));
  }
  std::vector<Json> calls;
  for (const Attack& attack : chosen) calls.push_back(attack.call);
  const test::TreeDigest before = scene.snapshot();
  test::ToolRun run = scene.run_tool(scene.repository(), {"--policy", policy.string()}, calls);
  BOOST_REQUIRE_MESSAGE(run.answers.size() == chosen.size(), run.stderr_text);
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    const Attack& attack = chosen[i];
    const test::ToolAnswer& answer = run.answers[i];
    BOOST_TEST_CONTEXT(policy.filename().string()
                       << ": " << attack.label << " -> " << answer.verdict << " by " << answer.decided_by << " '"
                       << answer.rule_id << "': " << answer.reason << "\n"
                       << answer.content.substr(0, 400)) {
      scene.check_no_secret(answer.content, attack.label);
      if (attack.expect == Expect::denied) {
        BOOST_TEST(answer.verdict == "denied");
      } else if (attack.expect == Expect::withheld) {
        BOOST_TEST(answer.verdict == "allowed");
        BOOST_TEST(answer.content.find("that the policy hides (rule 'secrets')") != std::string::npos);
      } else {
        BOOST_TEST(answer.verdict == "allowed");
        BOOST_TEST(!answer.is_error);
      }
    }
  }
  scene.check_unchanged(before, policy.filename().string());
  BOOST_TEST(scene.listener().connections() == 0);
  BOOST_TEST(!fs::exists(scene.outside() / "pwned"));
  return chosen.size();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(policy_attacks)

BOOST_AUTO_TEST_CASE(default_policy_rules_stop_every_attack_without_the_sandbox) {
  test::SecurityFixture scene;
  BOOST_TEST_MESSAGE("default.yaml, sandbox off: "
                     << run_attacks(scene, without_the_sandbox(scene, "default"), Modes::off_only) << " calls");
}

BOOST_AUTO_TEST_CASE(default_policy_stops_the_same_attacks_in_the_sandbox_and_runs_the_ordinary_shell) {
  if (!test::sandbox_tests_can_run()) return;
  test::SecurityFixture scene;
  BOOST_TEST_MESSAGE("default.yaml, sandbox on: " << run_attacks(scene, scene.policy("default"), Modes::on_only)
                                                  << " calls");
}

BOOST_AUTO_TEST_CASE(read_only_policy_rules_stop_every_attack_without_the_sandbox) {
  test::SecurityFixture scene;
  BOOST_TEST_MESSAGE("read-only.yaml, sandbox off: "
                     << run_attacks(scene, without_the_sandbox(scene, "read-only"), Modes::off_only, true) << " calls");
}

BOOST_AUTO_TEST_CASE(permissive_policy_does_not_load_with_the_sandbox_off) {
  test::SecurityFixture scene;
  fs::path file = scene.root() / "policies" / "permissive-off.yaml";
  {
    std::ifstream in(scene.policy("permissive"));
    std::stringstream text;
    text << in.rdbuf();
    std::ofstream(file) << std::regex_replace(text.str(), std::regex("\nsandbox: on"), "\nsandbox: off");
  }
  const test::TreeDigest before = scene.snapshot();
  test::ToolRun run = scene.run_tool(scene.repository(), {"--policy", file.string()}, {test::bash_call("cat .env")});
  BOOST_TEST(run.exit_code != 0);
  BOOST_TEST(run.answers.empty());
  BOOST_TEST(run.stderr_text.find("'sandboxed_bash: allow' needs the sandbox") != std::string::npos, run.stderr_text);
  scene.check_no_secret(run.stdout_text + run.stderr_text, "permissive-off");
  scene.check_unchanged(before, "permissive-off");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
