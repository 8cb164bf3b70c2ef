// What a sandboxed run's children can reach, through the binary: a secret-named file made by setup,
// or after the agent's sandbox started (by a command or a background process of the agent's), is
// masked for every later command, background ones included; the per-edit linter runs in the sandbox (it cannot read
// agent-run's environment through /proc nor write outside the workspace), as the control with --sandbox off shows it
// can.
#include "base/files.h"
#include "base/json.h"
#include "support/fixtures.h"
#include "support/loopback_listener.h"
#include "support/process_probes.h"
#include "support/sandbox_support.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <map>

using namespace agent_run;
using namespace agent_run::test;
namespace fs = std::filesystem;

namespace {

/// A repository with the stock default policy and a shell script, and a report folder outside it.
struct ReachFixture {
  TempFolder repo;
  TempFolder out;
  TempFolder visible{visible_scratch()};  // outside /tmp: a sandbox sees it (read-only)

  ReachFixture() {
    auto policy = read_file(source_root() / "policies/default.yaml");
    BOOST_REQUIRE(policy.has_value());
    make_git_repository(repo.path(), {{"greet.sh", "#!/bin/sh\necho bye\n"}, {"policy.yaml", *policy}});
  }

  void commit_all() const {
    run_shell("git add -A && git -c user.name=t -c user.email=t@example.invalid commit -qm task", repo.path());
  }
  CommandResult run(const std::string& task_file, const std::string& before = "",
                    const std::vector<std::string>& more = {}) const {
    std::string line = before + " " + shell_quote(test::agent_run_binary()) + " " + shell_quote(task_file) + " --out " +
                       shell_quote(out.path().string());
    for (const std::string& word : more) line += " " + shell_quote(word);
    return run_shell(line, repo.path());
  }
  std::string transcript(const std::string& task) const { return out.read("attempts/" + task + "/1/transcript.jsonl"); }
};

}  // namespace

BOOST_FIXTURE_TEST_SUITE(sandbox_reach, ReachFixture, *boost::unit_test::precondition(sandbox_usable))

// Each name is built by python, so that the policy cannot see it and only the sandbox's masks stand
// in the way (the canaries too, so that the commands' text does not hold them); the controls read
// ordinary files made the same way.
BOOST_AUTO_TEST_CASE(secret_files_made_after_the_sandbox_started_are_masked_for_later_commands) {
  repo.write("tasks/late.yaml", R"(prompt: Read what appears.
policy: ../policy.yaml
setup:
  - "printf 'setup-secret-%s' canary > .env"
script:
  - call: {tool: bash, input: {command: "python3 -c \"open('.e'+'nv.agent','w').write('agent-secret-'+'canary'); open('plain.txt','w').write('agent-plain-'+'canary')\""}}
  - call: {tool: bash, input: {background: true, command: "python3 -c \"open('.e'+'nv.bg','w').write('bg-secret-'+'canary'); open('bg.txt','w').write('bg-plain-'+'canary')\""}}
  - call: {tool: process_output, input: {handle: bg1, wait: 60}}
  - calls:
      - {tool: bash, input: {command: "python3 -c \"print(open('.e'+'nv').read())\""}}
      - {tool: bash, input: {command: "python3 -c \"print(open('.e'+'nv.agent').read())\""}}
      - {tool: bash, input: {command: "python3 -c \"print(open('.e'+'nv.bg').read())\""}}
      - {tool: bash, input: {command: "python3 -c \"print(open('plain.txt').read(), open('bg.txt').read())\""}}
  - call: {tool: bash, input: {background: true, command: "python3 -c \"print(open('.e'+'nv.agent').read())\""}}
  - call: {tool: process_output, input: {handle: bg2, wait: 60}}
  - say: Done.
checks:
  - run: "python3 -c \"open('.e'+'nv.check','w').write('check-secret-'+'canary')\""
  - run: "python3 -c \"print(open('.e'+'nv.check').read())\" 2>&1; python3 -c \"print(open('.e'+'nv.agent').read())\" 2>&1; true"
)");
  commit_all();
  CommandResult result = run("tasks/late.yaml");
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 0);
  const std::string transcript = this->transcript("late");
  BOOST_TEST(transcript.find("agent-plain-canary bg-plain-canary") != std::string::npos);  // the controls
  for (const char* secret : {"setup-secret-canary", "agent-secret-canary", "bg-secret-canary"}) {
    BOOST_TEST(transcript.find(secret) == std::string::npos, secret << " was read back: " << transcript);
  }
  BOOST_TEST(transcript.find("Permission denied") != std::string::npos);
  BOOST_TEST(out.read("attempts/late/1/patch.diff").find("secret-canary") == std::string::npos);
  // The report lists what was masked at the start and, apart, what was masked later, when and for whom.
  auto report = parse_json(out.read("report.json"));
  BOOST_REQUIRE(report.has_value());
  const Json& attempt = report->find("attempts")->as_array().at(0);
  const Json& sandbox = *attempt.find("sandbox");
  std::vector<std::string> masked;
  for (const Json& path : sandbox.find("masked")->as_array()) masked.push_back(path.as_string());
  BOOST_TEST((std::find(masked.begin(), masked.end(), ".env") != masked.end()), sandbox.dump());
  std::map<std::string, const Json*> later;
  for (const Json& mask : sandbox.find("masked_later")->as_array()) later[mask.get_string("path")] = &mask;
  BOOST_TEST(sandbox.find("masked_later_total")->as_int() == 3);
  for (const auto& [path, during] : std::vector<std::pair<std::string, std::string>>{
           {".env.agent", "agent"}, {".env.bg", "agent"}, {".env.check", "checks"}}) {
    BOOST_REQUIRE_MESSAGE(later.count(path) == 1, path << " is not in masked_later: " << sandbox.dump());
    BOOST_TEST(later[path]->get_string("during") == during, path);
    BOOST_TEST(later[path]->get_string("why") == "secrets", path);
    BOOST_TEST(later[path]->get_string("first_masked_at") >= attempt.get_string("started_at"), path);
    BOOST_TEST((std::find(masked.begin(), masked.end(), path) == masked.end()), path);
  }
  // The checks ran after .env.check appeared: the second read it back as nothing.
  const std::string checked = attempt.find("checks")->as_array().at(1).get_string("output_tail");
  BOOST_TEST(checked.find("Permission denied") != std::string::npos, checked);
  for (const char* secret : {"check-secret-canary", "agent-secret-canary"})
    BOOST_TEST(out.read("report.json").find(secret) == std::string::npos, secret);
}

// Setup runs outside the sandbox, with the machine's network: a daemon it leaves running lives
// through the checks and serves the sandboxed ones through a Unix socket in the workspace (they have
// no network to reach it by), then is killed and listed in escaped_processes. A daemon a sandboxed check starts (setsid) dies
// with that check: its process namespace ends with it, so the next check finds nobody listening.
BOOST_AUTO_TEST_CASE(setup_s_daemon_serves_the_sandboxed_checks_and_a_check_s_own_daemon_dies_with_its_check) {
  repo.write("db.py",
             "import os, socket, sys\npath = sys.argv[1]\nserver = socket.socket(socket.AF_UNIX)\n"
             "server.bind(path)\nserver.listen(8)\nopen(path + '.tmp', 'w').write(str(os.getpid()))\n"
             "os.rename(path + '.tmp', path + '.pid')\nwhile True:\n    client, _ = server.accept()\n"
             "    client.sendall(b'pong')\n    client.close()\n");
  repo.write("ask.py",
             "import socket, sys\nclient = socket.socket(socket.AF_UNIX)\ntry:\n    client.connect(sys.argv[1])\n"
             "    print('answer:', client.recv(16).decode())\nexcept OSError as error:\n"
             "    print('no answer:', error)\n");
  const std::string start = "setsid -f python3 db.py {0}.sock </dev/null >/dev/null 2>&1; "
                            "while [ ! -s {0}.sock.pid ]; do sleep 0.01; done";
  auto started = [&](const std::string& name) {
    std::string line = start;
    for (std::size_t at; (at = line.find("{0}")) != std::string::npos;) line.replace(at, 3, name);
    return line;
  };
  // Setup has the machine's network, the checks only a loopback of their own.
  LoopbackListener listener;
  const std::string connect = "python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", " +
                              std::to_string(listener.port()) + "), timeout=3); print(\"connected\")' 2>&1 | tail -1";
  repo.write("tasks/daemon.yaml", "prompt: p\npolicy: ../policy.yaml\nsetup:\n  - " + Json(started("setup")).dump() +
                                      "\n  - " + Json(connect).dump() +
                                      "\nchecks:\n  - run: \"python3 ask.py setup.sock | grep -x 'answer: pong'\"\n"
                                      "  - run: " +
                                      Json(started("check") + "; python3 ask.py check.sock").dump() +
                                      "\n  - run: \"python3 ask.py check.sock\"\n  - run: " + Json(connect).dump() +
                                      "\nscript:\n  - say: Done.\n");
  commit_all();
  // With the sandbox on, then, as the control, off: there the check's daemon lives on like setup's.
  for (const bool sandboxed : {true, false}) {
    CommandResult result =
        run("tasks/daemon.yaml", "", sandboxed ? std::vector<std::string>{} : std::vector<std::string>{"--sandbox", "off"});
    BOOST_TEST_CONTEXT("sandbox " << (sandboxed ? "on" : "off") << ": " << result.output) {
      BOOST_TEST(result.exit_code == 0);
      auto report = parse_json(out.read("report.json"));
      BOOST_REQUIRE(report.has_value());
      const Json& attempt = report->find("attempts")->as_array().at(0);
      BOOST_TEST(attempt.get_string("outcome") == "passed", attempt.get_string("message"));
      BOOST_TEST(attempt.find("sandbox")->get_string("kind") == (sandboxed ? "bubblewrap" : "none"));
      const auto& checks = attempt.find("checks")->as_array();
      BOOST_REQUIRE_EQUAL(checks.size(), 4u);
      BOOST_TEST(attempt.find("setup")->as_array().at(1).get_string("output_tail").find("connected") !=
                 std::string::npos);
      const std::string reached = checks[3].get_string("output_tail");
      BOOST_TEST(reached.find(sandboxed ? "Connection refused" : "connected") != std::string::npos, reached);
      BOOST_TEST(listener.connections() == (sandboxed ? 1 : 3));  // setup's, and with the sandbox off the check's
      BOOST_TEST(checks[1].get_string("output_tail").find("answer: pong") != std::string::npos);  // as its check ran
      const std::string after = checks[2].get_string("output_tail");
      BOOST_TEST(after.find(sandboxed ? "no answer: [Errno 111] Connection refused" : "answer: pong") !=
                     std::string::npos,
                 after);
      const auto& escaped = attempt.find("escaped_processes")->as_array();
      // Setup's, and with the sandbox off the check's; in it the check's died with its check, unrecorded.
      BOOST_REQUIRE_EQUAL(escaped.size(), sandboxed ? 1u : 2u);
      std::string commands;
      for (const Json& process : escaped) {
        commands += process.get_string("command") + "\n";
        BOOST_TEST(is_gone_soon(static_cast<pid_t>(process.find("pid")->as_int())));
      }
      BOOST_TEST(commands.find("db.py setup.sock") != std::string::npos, commands);
    }
  }
}

// One HOME/.cache for the attempt's sandboxes: what the agent's commands put in the build cache
// (GOCACHE lives there) the checks' fresh sandbox finds; another attempt starts with an empty one.
BOOST_AUTO_TEST_CASE(the_checks_fresh_sandbox_finds_the_build_cache_of_its_own_attempt_and_no_other) {
  repo.write("tasks/fills.yaml", R"(prompt: Build.
policy: ../policy.yaml
script:
  - call: {tool: bash, input: {command: "mkdir -p \"$HOME/.cache/go-build\" && echo filled-by-the-agent > \"$HOME/.cache/go-build/entry\""}}
  - say: Built.
checks:
  - run: "cat \"$HOME/.cache/go-build/entry\""
)");
  repo.write("tasks/other.yaml", R"(prompt: Build.
policy: ../policy.yaml
script:
  - say: Nothing.
checks:
  - run: "test ! -e \"$HOME/.cache/go-build/entry\" && echo empty"
)");
  commit_all();
  CommandResult result = run("tasks/fills.yaml", "", {"tasks/other.yaml"});
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 0);
  auto report = parse_json(out.read("report.json"));
  BOOST_REQUIRE(report.has_value());
  std::map<std::string, std::string> tails;
  for (const Json& attempt : report->find("attempts")->as_array()) {
    BOOST_TEST(attempt.find("sandboxed")->as_bool());
    tails[attempt.get_string("task_id")] = attempt.find("checks")->as_array().at(0).get_string("output_tail");
  }
  BOOST_TEST(tails["fills"] == "filled-by-the-agent\n");
  BOOST_TEST(tails["other"] == "empty\n");
}


// A fake shellcheck first on PATH reports what it could reach as its finding: agent-run's
// environment through its parent's /proc entry (a canary key is in it), a write outside the
// workspace, and the sandbox's token. With --sandbox off the same linter reaches both: the control.
BOOST_AUTO_TEST_CASE(the_per_edit_linter_runs_in_the_sandbox) {
  fs::create_directories(visible.path() / "bin");
  const fs::path escaped = visible.path() / "linter-wrote-here";
  visible.write(
      "bin/shellcheck",
      "#!/bin/sh\n"
      "for last; do :; done\n"
      "if tr '\\0' '\\n' < /proc/$PPID/environ 2>/dev/null | grep -q LINTER_CANARY_TOKEN; "
      "then environ=leaked; else environ=clean; fi\n"
      "touch " +
          escaped.string() +
          " 2>/dev/null && wrote=outside || wrote=nowhere\n"
          "if ls /run 2>/dev/null | grep -q '^agent-run-sandbox-'; then token=inside; else token=outside; fi\n"
          "echo \"$last:1:1: warning: linter-facts environ=$environ wrote=$wrote token=$token [SC9999]\"\n");
  fs::permissions(visible.path() / "bin/shellcheck", fs::perms::owner_all, fs::perm_options::add);
  repo.write("tasks/lint.yaml", R"(prompt: Say hello.
policy: ../policy.yaml
script:
  - call: {tool: read_file, input: {path: greet.sh}}
  - call: {tool: edit_file, input: {path: greet.sh, old: "echo bye", new: "echo hello"}}
  - say: Done.
)");
  commit_all();
  const std::string before =
      "LINTER_CANARY_TOKEN=sk-linter-canary PATH=" + shell_quote((visible.path() / "bin").string()) + ":$PATH";
  CommandResult sandboxed = run("tasks/lint.yaml", before);
  BOOST_TEST_INFO(sandboxed.output);
  BOOST_TEST(sandboxed.exit_code == 0);
  const std::string report = out.read("report.json");
  BOOST_TEST(report.find("linter-facts environ=clean wrote=nowhere token=inside") != std::string::npos, report);
  BOOST_TEST(!fs::exists(escaped));

  CommandResult unsandboxed = run("tasks/lint.yaml", before, {"--sandbox", "off"});
  BOOST_TEST(unsandboxed.exit_code == 0, unsandboxed.output);
  BOOST_TEST(
      out.read("report.json").find("linter-facts environ=leaked wrote=outside token=outside") != std::string::npos,
      out.read("report.json"));
}

BOOST_AUTO_TEST_SUITE_END()
