// What a sandboxed run's children can reach, through the binary: a secret-named file made by setup,
// or after the agent's sandbox started (by a command or a background process of the agent's), is
// masked for every later command, background ones included; the per-edit linter runs in the sandbox (it cannot read
// agent-run's environment through /proc nor write outside the workspace), as the control with --sandbox off shows it
// can.
#include "base/files.h"
#include "base/json.h"
#include "support/fixtures.h"
#include "support/sandbox_support.h"

#include <boost/test/unit_test.hpp>

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
    std::string line = before + " " + shell_quote(AGENT_RUN_BINARY) + " " + shell_quote(task_file) + " --out " +
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
