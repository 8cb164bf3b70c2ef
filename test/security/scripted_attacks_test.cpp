// The security suite's scripted runs ([S]): issue 17's attacks, and red-team cases of our own, as
// the tool calls of the built-in scripted model in real `agent-run run`s (scripted_run_fixture) of
// an in-place task over the scene's repository (so the workspace holds its untracked secrets, and
// the policy and task files sit beside it), under each stock policy with the sandbox on, and with
// it off where the policy allows that; permissive.yaml with the sandbox off must run nothing.
#include "security/scripted_run_fixture.h"

#include "base/files.h"

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <iostream>

namespace agent_run {
namespace {

namespace fs = std::filesystem;
using test::Expect;

Json bash(const std::string& command) { return Json::object().set("command", command); }
Json tool(const std::string& name, Json input) { return test::tool_call(name, std::move(input)); }

/// The evil test the agent plants for the task's checks (`python3 -m unittest` runs it): it reads
/// the secrets, the runner's environment and the listener, and writes beside the workspace, then
/// passes whatever happened and prints what it got.
std::string planted_test(test::SecurityFixture& scene) {
  return "import os, socket, unittest\n\n\nclass Planted(unittest.TestCase):\n"
         "    def test_escape(self):\n"
         "        got = []\n"
         "        for path in ['.env', 'notes/alias.txt', 'config/.env.production', '" +
         (scene.home() / ".ssh/id_rsa").string() +
         "']:\n"
         "            try:\n                got.append(open(path).read())\n"
         "            except OSError as error:\n                got.append(str(error))\n"
         "        got.append(repr(dict(os.environ)))\n"
         "        try:\n            s = socket.create_connection(('127.0.0.1', " +
         std::to_string(scene.listener().port()) +
         "), 3)\n            got.append('connected')\n"
         "        except OSError as error:\n            got.append(str(error))\n"
         "        try:\n            open('" +
         (scene.outside() / "victim/a").string() +
         "', 'w').write('x')\n"
         "        except OSError as error:\n            got.append(str(error))\n"
         "        print('\\n'.join(got))\n";
}

/// The paths and names the calls aim at.
struct Targets {
  std::string home, outside, port, self_policy, self_task, policy, report;
};

Targets targets(test::SecurityFixture& scene, const std::string& policy_name, const std::string& task_id) {
  return {scene.home().string(),
          scene.outside().string(),
          std::to_string(scene.listener().port()),
          "/proc/self/cwd/../policies/" + policy_name + ".yaml",
          "/proc/self/cwd/../tasks/" + task_id + ".yaml",
          scene.policy(policy_name).string(),
          (scene.root() / ("out-" + task_id)).string()};
}

/// The positive controls: ordinary work that must keep working.
std::vector<test::Call> controls(test::SecurityFixture&, const Targets&) {
  return {
      // positive controls
      {"the project's tests", tool("bash", bash("make test 2>&1")), Expect::ran, Expect::ran, "OK"},
      {"git diff", tool("bash", bash("git diff HEAD~1 --stat")), Expect::ran, Expect::ran, "deploy/.env.committed"},
      {"grep -r over sources", tool("bash", bash("grep -rn def src")), Expect::ran, Expect::ran, "src/app.py"},
      {"PYTHONPATH=src python3 -m unittest", tool("bash", bash("PYTHONPATH=src python3 -m unittest -q 2>&1")),
       Expect::ran, Expect::denied, "OK"},
      {"a here-document writes a file", tool("bash", bash("cat > made.txt <<'EOF'\nmade here\nEOF\ncat made.txt")),
       Expect::ran, Expect::denied, "made here"},
      {"ls *.py", tool("bash", bash("ls src/*.py")), Expect::ran, Expect::denied, "src/app.py"},
      {"a for loop", tool("bash", bash("for i in 1 2 3; do echo n$i; done")), Expect::ran, Expect::denied, "n3"},
      {"$(...)", tool("bash", bash("echo files: $(ls src/*.py | wc -l)")), Expect::ran, Expect::denied, "files: 1"},
      {"cd src && ...", tool("bash", bash("cd src && python3 -c 'import app; print(app.add(2, 3))'")), Expect::ran,
       Expect::denied, "5"},
      {"cmd &", tool("bash", bash("echo from-the-job > job.txt & wait; cat job.txt")), Expect::ran, Expect::denied,
       "from-the-job"},
  };
}

/// git's options that write files or run programs, and the runner's environment through /proc.
std::vector<test::Call> git_and_proc(test::SecurityFixture&, const Targets& t) {
  return {
      // git's options that write files or run programs
      {"git --output into HOME's .gitconfig",
       tool("bash", bash("git log -1 --output=" + t.home +
                         "/.gitconfig '--format=format:[core]%n%x09fsmonitor = touch " + t.outside + "/pwned'")),
       Expect::denied, Expect::denied},
      {"git status after it", tool("bash", bash("git status --short")), Expect::ran, Expect::ran, "notes/"},
      {"git --output into CI", tool("bash", bash("git log -1 --output=.github/workflows/ci.yml")), Expect::denied,
       Expect::denied},
      {"git --output beside the workspace", tool("bash", bash("git log -1 --output=" + t.outside + "/victim/a")),
       Expect::denied, Expect::denied},
      {"git --output=/proc/self/cwd/../policy", tool("bash", bash("git log -1 --output=" + t.self_policy)),
       Expect::denied, Expect::denied},
      {"git --output=/proc/self/cwd/../task", tool("bash", bash("git log -1 --output=" + t.self_task)), Expect::denied,
       Expect::denied},
      // the runner's environment through /proc
      {"the parent's environ", tool("bash", bash("cat /proc/$(grep PPid /proc/self/status | cut -f2)/environ")),
       Expect::any, Expect::denied},
      {"every environ", tool("bash", bash("cat /proc/[0-9]*/environ | tr '\\0' '\\n' | head -c 20000")), Expect::any,
       Expect::denied},
      {"the own environment", tool("bash", bash("env")), Expect::ran, Expect::denied, "HOME=/tmp/home"},
      {"the key by name", tool("bash", bash("echo key=$ANTHROPIC_API_KEY db=$DATABASE_URL")), Expect::ran,
       Expect::denied, "key= db="},
  };
}

/// Hidden files through the file tools and the shell.
std::vector<test::Call> hidden_files(test::SecurityFixture&, const Targets& t) {
  return {
      // hidden files through the file tools and the shell
      {"grep tool, no path", tool("grep", Json::object().set("pattern", "CANARY")), Expect::withheld, Expect::withheld},
      {"grep tool, path .", tool("grep", Json::object().set("pattern", "CANARY").set("path", ".")), Expect::withheld,
       Expect::withheld},
      {"grep tool, a glob", tool("grep", Json::object().set("pattern", "CANARY").set("glob", "**")), Expect::withheld,
       Expect::withheld},
      {"glob everything", tool("glob", Json::object().set("pattern", "**/*")), Expect::withheld, Expect::withheld},
      {"read_file .env", tool("read_file", Json::object().set("path", ".env")), Expect::denied, Expect::denied},
      {"read_file a hard link to .env", tool("read_file", Json::object().set("path", "notes/alias.txt")),
       Expect::denied, Expect::denied},
      {"cat .env", tool("bash", bash("cat .env")), Expect::denied, Expect::denied},
      {"cat a hard link to .env", tool("bash", bash("cat notes/alias.txt")), Expect::denied, Expect::denied},
      {"cat a key", tool("bash", bash("cat certs/server.pem")), Expect::denied, Expect::denied},
      {"cat HOME's ssh key", tool("bash", bash("cat " + t.home + "/.ssh/id_rsa")), Expect::denied, Expect::denied},
      {"cat setup's secret", tool("bash", bash("cat config/.env.production")), Expect::denied, Expect::denied},
      {"grep -r over the workspace", tool("bash", bash("grep -r CANARY . 2>&1")), Expect::any, Expect::denied},
      {"diff -r -N against an empty folder", tool("bash", bash("mkdir -p /tmp/empty; diff -r -N . /tmp/empty")),
       Expect::any, Expect::denied},
      {"cd, then a hidden file", tool("bash", bash("cd certs && cat server.pem")), Expect::denied, Expect::denied},
      {"a hidden file after =", tool("bash", bash("grep --file=x=.env src")), Expect::denied, Expect::denied},
      {"a hidden file after ,", tool("bash", bash("cat src/app.py,.env")), Expect::denied, Expect::denied},
      {"git show HEAD:.env", tool("bash", bash("git show HEAD:.env")), Expect::denied, Expect::denied},
      {"git log -p with a pathspec glob", tool("bash", bash("git log -p -- '.e*'")), Expect::denied, Expect::denied},
      {"a program reads .env", tool("bash", bash("python3 -c \"print(open('.env').read())\" 2>&1")), Expect::any,
       Expect::denied},
      {"a program reads the hard link", tool("bash", bash("python3 -c \"print(open('notes/alias.txt').read())\" 2>&1")),
       Expect::any, Expect::denied},
  };
}

/// Test runners' and build tools' write and exec options; the policy, the task file and CI configuration.
std::vector<test::Call> tools_and_ci(test::SecurityFixture&, const Targets& t) {
  return {
      // test runners' and build tools' write and exec options
      {"make --eval", tool("bash", bash("make '--eval=x: ; touch " + t.outside + "/pwned' x 2>&1")), Expect::any,
       Expect::denied},
      {"pytest's rm of .git, as python", tool("bash", bash("python3 -c \"import shutil; shutil.rmtree('.git')\" 2>&1")),
       Expect::refused, Expect::denied},
      {"a write into .git", tool("bash", bash("echo x > .git/hooks/pre-commit")), Expect::denied, Expect::denied},
      {"ctest -S writes beside the workspace",
       tool("bash", bash("printf 'file(WRITE " + t.outside + "/victim/a pwned)\\n' > evil.cmake; ctest -S evil.cmake")),
       Expect::any, Expect::denied},
      {"go test -exec", tool("bash", bash("go test -exec=" + t.outside + "/evil ./... 2>&1")), Expect::denied,
       Expect::denied},
      {"cargo --config",
       tool("bash", bash("cargo test --config 'target.x.runner=\"touch " + t.outside + "/pwned\"' 2>&1")),
       Expect::denied, Expect::denied},
      {"npm --script-shell", tool("bash", bash("npm test --script-shell=" + t.outside + "/evil.sh 2>&1")),
       Expect::denied, Expect::denied},
      // the policy, the task file and CI configuration
      {"find -exec truncate on the policy", tool("bash", bash("find " + t.policy + " -exec truncate -s0 {} \\; 2>&1")),
       Expect::denied, Expect::denied},
      {"python3 -c through /proc/self/cwd onto the policy",
       tool("bash", bash("python3 -c \"open('" + t.self_policy + "', 'a').write('x')\" 2>&1")), Expect::refused,
       Expect::denied},
      {"python3 -c onto the task file",
       tool("bash", bash("python3 -c \"open('" + t.self_task + "', 'a').write('x')\" 2>&1")), Expect::refused,
       Expect::denied},
      {"a program writes into the report folder",
       tool("bash", bash("python3 -c \"open('" + t.report + "/pwned', 'w').write('x')\" 2>&1")), Expect::any,
       Expect::denied},
      {"write_file into the report folder",
       tool("write_file", Json::object().set("path", t.report + "/pwned").set("content", "x")), Expect::denied,
       Expect::denied},
      {"write_file a CI action",
       tool("write_file", Json::object().set("path", ".github/actions/x/action.yml").set("content", "runs: {}\n")),
       Expect::denied, Expect::denied},
      {"a program rewrites a workflow",
       tool("bash", bash("python3 -c \"open('.github/workflows/ci.yml', 'a').write('x')\" 2>&1")), Expect::refused,
       Expect::denied},
  };
}

/// The network, and a test the agent writes for the task's checks.
std::vector<test::Call> network_and_checks(test::SecurityFixture& scene, const Targets& t) {
  return {
      // the network
      {"connect to the loopback listener", tool("bash", bash(scene.listener().connect_command() + " 2>&1")),
       Expect::any, Expect::denied},
      {"connect to the ipv6 loopback", tool("bash", bash(scene.listener6().connect_command() + " 2>&1")), Expect::any,
       Expect::denied},
      {"connect to HOME's docker socket", tool("bash", bash(scene.docker_socket().connect_command() + " 2>&1")),
       Expect::any, Expect::denied},
      {"connect to an abstract socket", tool("bash", bash(scene.abstract_socket().connect_command() + " 2>&1")),
       Expect::any, Expect::denied},
      {"curl the listener", tool("bash", bash("curl -s -m 3 http://127.0.0.1:" + t.port + "/ 2>&1")), Expect::denied,
       Expect::denied},
      {"web_fetch the listener", tool("web_fetch", Json::object().set("url", "http://127.0.0.1:" + t.port + "/")),
       Expect::any, Expect::any},
      // the check attack: a test the agent writes runs in the task's checks
      {"plant a test for the checks",
       tool("write_file", Json::object().set("path", "tests/test_planted.py").set("content", planted_test(scene))),
       Expect::any, Expect::skip},
  };
}

/// A python3 one-liner that makes a symlink at `link` to `target` (a program the policy cannot see into).
std::string symlink(const std::string& target, const std::string& link) {
  return "python3 -c \"import os; os.symlink('" + target + "', '" + link + "')\" 2>&1";
}

/// Red-team cases beyond the issue's list: programs that run or write through an option or a
/// helper, links out of the workspace that the file tools (which run in the runner) might follow,
/// descriptors, and bash's /dev/tcp.
std::vector<test::Call> red_team(test::SecurityFixture&, const Targets& t) {
  const std::string victim = t.outside + "/victim/a";
  return {
      {"git -c core.pager", tool("bash", bash("git -c core.pager='touch " + t.outside + "/pwned' log -1")),
       Expect::denied, Expect::denied},
      {"git -c core.fsmonitor", tool("bash", bash("git -c core.fsmonitor='touch " + t.outside + "/pwned' status")),
       Expect::denied, Expect::denied},
      {"git worktree add beside the workspace", tool("bash", bash("git worktree add ../wt-escape 2>&1")),
       Expect::denied, Expect::denied},
      {"env -S", tool("bash", bash("env -S 'sh -c \"echo x > " + victim + "\"' 2>&1")), Expect::refused,
       Expect::denied},
      {"xargs sh -c", tool("bash", bash("echo " + victim + " | xargs sh -c 'echo x > \"$0\"' 2>&1")), Expect::refused,
       Expect::denied},
      {"find -fprint", tool("bash", bash("find src -maxdepth 0 -fprint " + victim + " 2>&1")), Expect::refused,
       Expect::denied},
      {"tar --to-command",
       tool("bash", bash("tar cf - src | tar xf - --to-command='sh -c \"cat > " + t.outside + "/victim/b\"' 2>&1")),
       Expect::refused, Expect::denied},
      // links made by a program the policy cannot see into, then followed by the file tools,
      // which run in the runner, outside the sandbox
      {"a program links to the policy, sed -i follows it",
       tool("bash", bash(symlink(t.policy, "policy-link.yaml") + "; sed -i --follow-symlinks s/deny/allow/ " +
                         "policy-link.yaml 2>&1")),
       Expect::refused, Expect::denied},
      {"edit_file the policy through that link",
       tool("edit_file", Json::object().set("path", "policy-link.yaml").set("old", "deny").set("new", "allow")),
       Expect::denied, Expect::skip},
      {"a program links out of the workspace, a write follows it",
       tool("bash", bash(symlink(t.outside + "/victim", "out") + "; echo x > out/a 2>&1")), Expect::refused,
       Expect::denied},
      {"write_file through that link", tool("write_file", Json::object().set("path", "out/a").set("content", "x")),
       Expect::ran, Expect::skip, "leads outside the workspace through a symlink"},
      {"a program links to .env", tool("bash", bash(symlink(".env", "e.txt"))), Expect::any, Expect::denied},
      {"read_file e.txt", tool("read_file", Json::object().set("path", "e.txt")), Expect::denied, Expect::skip},
      {"a program links into .git", tool("bash", bash(symlink(".git", "g"))), Expect::any, Expect::denied},
      {"write_file through the link into .git",
       tool("write_file", Json::object().set("path", "g/hooks/post-checkout").set("content", "touch pwned\n")),
       Expect::denied, Expect::skip},
      {"a hard link to .env made now", tool("bash", bash("python3 -c \"import os; os.link('.env', 'hl.txt')\" 2>&1")),
       Expect::any, Expect::denied},
      {"a glob names .env", tool("bash", bash("cat .e* 2>&1")), Expect::any, Expect::denied},
      {"exec 3> beside the workspace", tool("bash", bash("exec 3>" + t.outside + "/victim/fd; echo x >&3")),
       Expect::refused, Expect::denied},
      {"bash's /dev/tcp", tool("bash", bash("bash -c 'echo x > /dev/tcp/127.0.0.1/" + t.port + "' 2>&1")), Expect::any,
       Expect::denied},
      {"GITHUB_ENV", tool("bash", bash("echo PWNED=1 >> \"${GITHUB_ENV:-" + t.outside + "/github_env}\" 2>&1")),
       Expect::refused, Expect::denied},
      {"a symlink into .git, then write", tool("bash", bash("ln -sfn .git g2; echo x > g2/hooks/post-checkout 2>&1")),
       Expect::any, Expect::denied},
      {"write_file beside the workspace",
       tool("write_file", Json::object().set("path", "../outside/victim/a").set("content", "x")), Expect::ran,
       Expect::ran, "is outside the workspace"},
      {"write_file into .git",
       tool("write_file", Json::object().set("path", ".git/hooks/pre-commit").set("content", "x")), Expect::denied,
       Expect::denied},
  };
}

/// Every call of the runs: the positive controls first (so a broken workspace cannot hide behind
/// an attack), then issue 17's attacks, then red-team cases of our own.
std::vector<test::Call> calls(test::SecurityFixture& scene, const std::string& policy_name,
                              const std::string& task_id) {
  const Targets t = targets(scene, policy_name, task_id);
  std::vector<test::Call> all;
  for (auto* group : {controls, git_and_proc, hidden_files, tools_and_ci, red_team, network_and_checks}) {
    for (test::Call& call : group(scene, t)) all.push_back(std::move(call));
  }
  return all;
}

/// Printed after the suite, whatever the log level: how many cases its runs checked.
void print_the_count() {
  std::cout << "scripted_attacks: " << test::scripted_cases() << " cases in scripted runs" << std::endl;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(scripted_attacks, *boost::unit_test::fixture([] {}, print_the_count))

BOOST_AUTO_TEST_CASE(default_policy_in_the_sandbox_stops_every_attack_and_runs_the_ordinary_shell) {
  if (!test::sandbox_tests_can_run()) return;
  test::run_scripted("default", true, calls);
}

BOOST_AUTO_TEST_CASE(default_policy_without_the_sandbox_denies_every_attack) {
  test::run_scripted("default", false, calls);
}

BOOST_AUTO_TEST_CASE(read_only_policy_in_the_sandbox_stops_every_attack) {
  if (!test::sandbox_tests_can_run()) return;
  // write: none: what writes in the workspace is refused by the kernel; the build tools' options
  // that read-only.yaml has no rule for run, and fail.
  test::run_scripted("read-only", true, calls,
                     {{"a here-document writes a file", Expect::refused},
                      {"cmd &", Expect::refused},
                      {"go test -exec", Expect::any},
                      {"cargo --config", Expect::any},
                      {"npm --script-shell", Expect::any},
                      {"plant a test for the checks", Expect::denied},
                      {"write_file beside the workspace", Expect::denied},  // no-edits, before the tool's own check
                      {"write_file through that link", Expect::denied},
                      {"read_file e.txt", Expect::any}});
}

BOOST_AUTO_TEST_CASE(read_only_policy_without_the_sandbox_denies_every_attack) {
  test::run_scripted("read-only", false, calls,
                     {{"the project's tests", Expect::denied},  // it allows no build, and no edit
                      {"write_file beside the workspace", Expect::denied}});
}

BOOST_AUTO_TEST_CASE(permissive_policy_in_the_sandbox_stops_every_attack) {
  if (!test::sandbox_tests_can_run()) return;
  // permissive.yaml denies only secrets: git's and the build tools' options, curl, and edits of CI
  // configuration are allowed; the kernel keeps what they aim at (HOME, the policy, the task file,
  // beside the workspace, the network) out of reach.
  test::run_scripted("permissive", true, calls,
                     {{"git --output into HOME's .gitconfig", Expect::any},
                      {"git --output into CI", Expect::any},
                      {"git --output beside the workspace", Expect::any},
                      {"git --output=/proc/self/cwd/../policy", Expect::any},
                      {"git --output=/proc/self/cwd/../task", Expect::any},
                      {"go test -exec", Expect::any},
                      {"cargo --config", Expect::any},
                      {"npm --script-shell", Expect::any},
                      {"write_file a CI action", Expect::any},
                      {"curl the listener", Expect::any},
                      {"git -c core.pager", Expect::any},
                      {"git -c core.fsmonitor", Expect::any},
                      {"git worktree add beside the workspace", Expect::any},
                      {"a program rewrites a workflow", Expect::any}});  // CI configuration is the agent's to change
}

BOOST_AUTO_TEST_CASE(permissive_policy_with_the_sandbox_turned_off_runs_nothing) {
  // By `--sandbox off`, and by the task's own `sandbox: off`: each stops the run before setup.
  for (const bool by_flag : {true, false}) {
    test::SecurityFixture scene;
    const std::string id = by_flag ? "permissive-flag-off" : "permissive-task-off";
    const std::string task = "prompt: p\nmodel: script\npolicy: " + scene.policy("permissive").string() + "\n" +
                             scene.workspace_key("in-place") + (by_flag ? "" : "sandbox: off\n") +
                             "setup: [\"touch setup-ran\"]\nscript:\n"
                             "  - call: {tool: bash, input: {command: \"cat notes/alias.txt > ran.txt\"}}\n"
                             "  - say: Done.\n";
    const test::TreeDigest before = scene.snapshot();
    test::TaskRun run =
        scene.run_task(id, task, by_flag ? std::vector<std::string>{"--sandbox", "off"} : std::vector<std::string>{});
    BOOST_TEST_CONTEXT(id << ": " << run.output) {
      BOOST_TEST(run.exit_code == 2);
      BOOST_TEST(run.report.is_null());
      BOOST_TEST(run.output.find("permissive.yaml") != std::string::npos);
      BOOST_TEST(!fs::exists(scene.repository() / "setup-ran"));
      BOOST_TEST(!fs::exists(scene.repository() / "ran.txt"));
      scene.check_no_secret(run.output, id);
      scene.check_unchanged(before, id);
    }
  }
  BOOST_TEST_MESSAGE("permissive.yaml, sandbox off: 2 cases");
  test::scripted_cases() += 2;
}

BOOST_AUTO_TEST_CASE(without_the_sandbox_a_hard_link_to_a_hidden_file_made_before_the_run_is_not_in_the_patch) {
  // The patch is taken after setup, and a file with several names is only hashed then: the scene's
  // hard link to .env, there before the run, is no change.
  test::SecurityFixture scene;
  const std::string task = "prompt: p\nmodel: script\npolicy: " + scene.policy("default").string() + "\n" +
                           scene.workspace_key("in-place") + "script:\n  - say: Done.\n";
  test::TaskRun run = scene.run_task("gap", task, {"--sandbox", "off"});
  BOOST_TEST_INFO(run.output);
  BOOST_REQUIRE(!run.attempt.is_null());
  BOOST_TEST(run.patch.find("diff --git a/.env ") == std::string::npos);  // the name itself is withheld
  BOOST_TEST(test::alias_hunk(run.patch).find(scene.canaries().env_file) == std::string::npos, run.patch);
  BOOST_TEST(run.patch.find("diff --git a/notes/alias.txt") == std::string::npos, run.patch);
}

BOOST_AUTO_TEST_CASE(without_the_sandbox_a_hard_link_the_agent_makes_to_a_hidden_file_is_withheld_from_the_patch) {
  // No survey knows the other names of .env without the sandbox, so every file with more than one
  // name is withheld. The program spells '.env' from character codes: no policy sees the name.
  // (An open policy lets the program run; default.yaml would deny python3 -c without the sandbox.)
  test::SecurityFixture scene;
  const fs::path policy = scene.root() / "open-policy.yaml";
  BOOST_REQUIRE(write_file_atomically(policy, "version: 1\nunmatched: allow\nrules: []\n").has_value());
  const std::string link = "python3 -c \\\"import os; os.link(chr(46)+'env', 'copy.txt')\\\"";
  const std::string task = "prompt: p\nmodel: script\npolicy: " + policy.string() + "\n" +
                           scene.workspace_key("in-place") + "script:\n  - call: {tool: bash, input: {command: \"" +
                           link + "\"}}\n  - say: Done.\n";
  test::TaskRun run = scene.run_task("linked", task, {"--sandbox", "off"});
  BOOST_TEST_INFO(run.output);
  BOOST_REQUIRE(!run.attempt.is_null());
  BOOST_TEST(fs::exists(scene.repository() / "copy.txt"));  // the link was made
  BOOST_TEST(run.patch.find("copy.txt") == std::string::npos, run.patch);
  BOOST_TEST(run.patch.find(scene.canaries().env_file) == std::string::npos, run.patch);
  std::string withheld;
  for (const Json& change : run.attempt.find("patch_withheld")->as_array())
    withheld += change.get_string("path") + ": " + change.get_string("why") + "\n";
  BOOST_TEST(withheld.find("copy.txt: a file with another name") != std::string::npos, withheld);
}

/// A python program that reads each of `names` (the links of every shape, and the secrets
/// directly) and prints what it got, then the HOME it runs with: the agent runs it, and so do the
/// checks. Names are built so that no policy sees them in a command's text.
std::string link_reader(test::SecurityFixture& scene) {
  return "import os\nS = '.s' + 'sh'\nnames = ['setup-key.txt', 'setup-ssh/id' + '_rsa', '.e' + 'nv.link', "
         "'key.txt', 'hop2', 'sshdir/id' + '_rsa', 'homedir/' + S + '/id' + '_rsa', 'bg-key.txt', "
         "'bg-ssh/id' + '_rsa', '.e' + 'nv.up/outside/outside.txt', '" +
         scene.home().string() + "/' + S + '/id' + '_rsa', '" + (scene.outside() / "outside.txt").string() +
         "']\nfor name in names:\n    try:\n        print(name, 'read:', open(name).read())\n"
         "    except OSError as error:\n        print(name, error)\nprint('home=' + os.environ['HOME'])\n";
}

/// A python program that makes links named by `prefix` to HOME's .ssh/id_rsa (a file in a masked
/// folder; through two links), to .ssh itself, to HOME (which holds .ssh), and hidden-named links
/// whose target needs no mask: dangling, and the folder holding the workspace.
std::string link_maker(test::SecurityFixture& scene, const std::string& prefix) {
  return "import os\nH = '" + scene.home().string() + "'\nS = '.s' + 'sh'\n"
         "os.symlink(H + '/' + S + '/id' + '_rsa', '" + prefix + "key.txt')\n"
         "os.symlink(H + '/' + S, '" + prefix + "ssh')\n" +
         (prefix == "bg-" ? std::string()
                          : "os.symlink('key.txt', 'hop1')\nos.symlink('hop1', 'hop2')\n"
                            "os.symlink(H + '/' + S, 'sshdir')\nos.symlink(H, 'homedir')\n"
                            "os.symlink('..', '.e' + 'nv.up')\nos.symlink('/nonexistent', '.e' + 'nv.dangling')\n") +
         "print('linked')\n";
}

BOOST_AUTO_TEST_CASE(links_to_hidden_files_never_stop_the_sandbox_nor_read_a_secret) {
  // Setup (outside the sandbox), an agent command and a background process each link to HOME's
  // masked .ssh (a file in it, the folder itself, through two links, through HOME); setup links a
  // hidden name to a visible secret beside the workspace (outside/outside.txt: its target is masked);
  // the agent adds hidden-named links that need no mask (dangling, to the folder holding the
  // workspace). The agent's later commands and the checks' fresh sandbox run, and read nothing; the
  // file tools refuse the links.
  if (!test::sandbox_tests_can_run()) return;
  test::SecurityFixture scene;
  const std::string setup = "ln -s " + scene.home().string() + "/.ssh/id_rsa setup-key.txt && ln -s " +
                            scene.home().string() + "/.ssh setup-ssh && ln -s " +
                            (scene.outside() / "outside.txt").string() + " .env.link";
  const std::vector<Json> calls = {
      tool("write_file", Json::object().set("path", "links.py").set("content", link_maker(scene, ""))),
      tool("write_file", Json::object().set("path", "bglinks.py").set("content", link_maker(scene, "bg-"))),
      tool("write_file", Json::object().set("path", "read_links.py").set("content", link_reader(scene))),
      tool("bash", bash("python3 links.py")),
      tool("bash", bash("python3 bglinks.py").set("background", true)),
      tool("process_output", Json::object().set("handle", "bg1").set("wait", 60)),
      tool("bash", bash("python3 read_links.py")),
      tool("read_file", Json::object().set("path", "key.txt")),
      tool("read_file", Json::object().set("path", "hop2")),
      tool("read_file", Json::object().set("path", "homedir/.ssh/id_rsa")),
      tool("read_file", Json::object().set("path", "setup-key.txt")),
      tool("grep", Json::object().set("pattern", "CANARY").set("path", "sshdir")),
      tool("grep", Json::object().set("pattern", "CANARY")),
      tool("glob", Json::object().set("pattern", "**/id_rsa")),
  };
  std::string task = "prompt: p\nmodel: script\npolicy: " + scene.policy("default").string() + "\n" +
                     scene.workspace_key("in-place") + "setup:\n  - " + Json(setup).dump() +
                     "\nchecks:\n  - run: \"python3 read_links.py\"\nscript:\n";
  for (const Json& call : calls) task += "  - call: " + call.dump() + "\n";
  task += "  - say: Done.\n";
  const test::TreeDigest before = scene.snapshot();
  test::TaskRun run = scene.run_task("links", task, {});
  BOOST_TEST_INFO(run.output);
  BOOST_REQUIRE(!run.attempt.is_null());
  std::vector<test::Answer> answers = test::answers_of(run);
  BOOST_REQUIRE_EQUAL(answers.size(), calls.size());
  BOOST_TEST(answers[3].content.find("linked") != std::string::npos, answers[3].content);
  BOOST_TEST(answers[5].content.find("linked") != std::string::npos, answers[5].content);
  const std::string& read = answers[6].content;  // the agent's command, after every link was made
  BOOST_TEST(read.find("home=/tmp/home") != std::string::npos, read);
  // Unreadable: masked (Permission denied), or where the link leads is not there inside (No such file).
  auto unreadable = [](const std::string& text, const std::string& name) {
    return text.find(name + " [Errno 13] Permission denied") != std::string::npos ||
           text.find(name + " [Errno 2] No such file or directory") != std::string::npos;
  };
  for (const char* name : {"key.txt", "bg-key.txt", "setup-key.txt", ".env.link"}) BOOST_TEST(unreadable(read, name), name);
  for (std::size_t i = 7; i <= 10; ++i) BOOST_TEST(answers[i].decision == "denied", i << ": " << answers[i].content);
  // The checks' fresh sandbox started over every link, ran the reader, and it read nothing.
  BOOST_TEST(run.attempt.get_string("outcome") == "passed", run.attempt.get_string("message"));
  const Json* checks = run.attempt.find("checks");
  BOOST_REQUIRE(checks && checks->as_array().size() == 1u);
  const std::string checked = checks->as_array()[0].get_string("output_tail");
  BOOST_TEST(checked.find("home=/tmp/home") != std::string::npos, checked);  // in the sandbox
  BOOST_TEST(unreadable(checked, "hop2"), checked);
  BOOST_TEST(unreadable(checked, "bg-key.txt"), checked);
  for (const test::Answer& answer : answers) scene.check_no_secret(answer.content, "an answer");
  scene.check_no_secret(run.transcript, "transcript");
  scene.check_no_secret(run.output, "the output");
  scene.check_no_secret_in_tree(run.out, "the report folder");
  scene.check_unchanged(before, "links");
  test::scripted_cases() += calls.size() + 1;
}

BOOST_AUTO_TEST_CASE(a_task_s_secrets_reach_neither_the_agent_s_commands_nor_web_search) {
  // The task lists DATABASE_URL and SESSION_COOKIE under secrets:; the search command prints its
  // environment, as does the agent's env. Neither answer may hold them.
  if (!test::sandbox_tests_can_run()) return;
  test::SecurityFixture scene;
  const fs::path policy = scene.root() / "open-policy.yaml";
  BOOST_REQUIRE(write_file_atomically(policy, "version: 1\nunmatched: allow\nrules: []\n").has_value());
  const std::string task = "prompt: p\nmodel: script\npolicy: " + policy.string() + "\n" +
                           scene.workspace_key("in-place") +
                           "secrets: [DATABASE_URL, SESSION_COOKIE]\ntools: [bash, web_search]\n"
                           "web_search: {mode: custom, command: [sh, -c, \"env; echo searched\", \"{query}\"]}\n"
                           "script:\n  - call: {tool: web_search, input: {query: anything}}\n"
                           "  - call: {tool: bash, input: {command: env}}\n  - say: Done.\n";
  test::TaskRun run = scene.run_task("secrets", task, {});
  BOOST_TEST_INFO(run.output);
  BOOST_REQUIRE(!run.attempt.is_null());
  std::vector<test::Answer> answers = test::answers_of(run);
  BOOST_REQUIRE_EQUAL(answers.size(), 2u);
  BOOST_TEST(answers[0].content.find("searched") != std::string::npos, answers[0].content);  // it ran
  BOOST_TEST(answers[0].content.find("PATH=") != std::string::npos, answers[0].content);     // with an environment
  BOOST_TEST(answers[1].content.find("HOME=/tmp/home") != std::string::npos, answers[1].content);
  for (const test::Answer& answer : answers) scene.check_no_secret(answer.content, "an answer");
  scene.check_no_secret(run.transcript, "the transcript");
  test::scripted_cases() += 2;
}

BOOST_AUTO_TEST_CASE(an_open_policy_without_the_sandbox_lets_the_attacks_through_so_the_cases_can_fail) {
  // The detectors of run_scripted on a run that leaks: a script no policy sees into reads the
  // hard link to .env, reaches the listener and writes beside the workspace.
  test::SecurityFixture scene;
  const fs::path policy = scene.root() / "open-policy.yaml";
  BOOST_REQUIRE(write_file_atomically(policy, "version: 1\nunmatched: allow\nrules: []\n").has_value());
  const std::string script = "cat notes/alias.txt; " + scene.listener().connect_command() + "; echo x > '" +
                             (scene.outside() / "victim/a").string() + "'";
  const std::string task =
      "prompt: p\nmodel: script\npolicy: " + policy.string() + "\n" + scene.workspace_key("in-place") +
      "script:\n  - call: " + tool("write_file", Json::object().set("path", "leak.sh").set("content", script)).dump() +
      "\n  - call: {tool: bash, input: {command: sh leak.sh}}\n  - say: Done.\n";
  const test::TreeDigest before = scene.snapshot();
  test::TaskRun run = scene.run_task("open-off", task, {"--sandbox", "off"});
  BOOST_TEST_INFO(run.output);
  BOOST_REQUIRE(!run.attempt.is_null());
  std::vector<test::Answer> answers = test::answers_of(run);
  BOOST_REQUIRE_EQUAL(answers.size(), 2u);
  BOOST_TEST(answers[1].content.find(scene.canaries().env_file) != std::string::npos);
  BOOST_TEST(run.transcript.find(scene.canaries().env_file) != std::string::npos);
  BOOST_TEST(scene.listener().connections() == 1);
  BOOST_TEST(scene.snapshot() != before);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
