#include "base/files.h"
#include "base/json.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>

using namespace agent_run;
using namespace agent_run::test;
namespace fs = std::filesystem;

namespace {

const char* k_policy = R"(version: 1
unmatched: deny
rules:
  - id: edit-files
    allow: [edit_file, write_file]
  - id: no-shell
    deny: bash
    message: no shell in this test
)";

const char* k_passing_task = R"(description: Make greet say hello
prompt: Change greet.sh so it prints hello.
policy: ../policy.yaml
checks:
  - run: "sh greet.sh | grep -qx hello"
script:
  - call: {tool: read_file, input: {path: greet.sh}}
  - calls:
      - {tool: edit_file, input: {path: greet.sh, old: "echo bye", new: "echo hello"}}
      - {tool: bash, input: {command: "rm -rf /tmp/should-not-run"}}
  - say: Done.
)";

/// A git repository made by the test, holding a tiny project, a policy and task files.
struct RepositoryFixture {
  TempFolder repo;
  TempFolder out;
  RepositoryFixture() {
    make_git_repository(repo.path(),
                        {{"greet.sh", "echo bye\n"}, {"policy.yaml", k_policy}, {"tasks/greet.yaml", k_passing_task}});
  }
  Json report() const {
    auto parsed = parse_json(out.read("report.json"));
    BOOST_REQUIRE_MESSAGE(parsed.has_value(), "report.json does not parse");
    return *parsed;
  }
  const Json& first_attempt() const {
    static Json holder;
    holder = report();
    return holder.find("attempts")->as_array().at(0);
  }
};

}  // namespace

BOOST_FIXTURE_TEST_SUITE(agent_run_binary, RepositoryFixture)

BOOST_AUTO_TEST_CASE(a_passing_task_in_a_git_repository_exits_0_with_valid_reports) {
  CommandResult result = run_agent_run({"tasks/greet.yaml", "--out", out.path().string()}, repo.path());
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 0);
  const Json& attempt = first_attempt();
  BOOST_TEST(attempt.get_string("outcome") == "passed");
  BOOST_TEST(attempt.find("turns")->as_int() == 3);
  const Json::Array& calls = attempt.find("tool_calls")->as_array();
  BOOST_REQUIRE(calls.size() == 3u);
  BOOST_TEST(calls[2].get_string("decision") == "denied");
  BOOST_TEST(calls[2].get_string("rule_id") == "no-shell");
  BOOST_TEST(attempt.find("usage")->find("estimated")->as_bool());
  check_report_folder(out.path());
  std::string patch = out.read("attempts/greet/1/patch.diff");
  BOOST_TEST(patch.find("-echo bye\n+echo hello") != std::string::npos);
  BOOST_TEST(out.read("attempts/greet/1/transcript.jsonl").find("\"type\":\"tool_result\"") != std::string::npos);
  BOOST_TEST(repo.read("greet.sh") == "echo bye\n");  // the source repository is untouched
  BOOST_TEST(run_shell("git status --porcelain", repo.path()).output == "");
  BOOST_TEST(run_shell("git worktree list | wc -l", repo.path()).output == "1\n");
}

BOOST_AUTO_TEST_CASE(a_failing_check_exits_1) {
  repo.write("tasks/failing.yaml", R"(prompt: Do nothing useful.
checks:
  - run: "false"
script:
  - say: I did nothing.
)");
  CommandResult result = run_agent_run({"tasks/failing.yaml", "--out", out.path().string()}, repo.path());
  BOOST_TEST(result.exit_code == 1);
  BOOST_TEST(first_attempt().get_string("outcome") == "failed");
  BOOST_TEST(first_attempt().get_string("outcome_type") == "check.failed");
  BOOST_TEST(first_attempt().get_string("message") == "check `false` exited 1");
}

BOOST_AUTO_TEST_CASE(a_failing_setup_is_an_error_and_exits_3) {
  repo.write("tasks/setup.yaml", "prompt: x\nsetup: [\"exit 7\"]\nscript: [{say: hi}]\n");
  CommandResult result = run_agent_run({"tasks/setup.yaml", "--out", out.path().string()}, repo.path());
  BOOST_TEST(result.exit_code == 3);
  BOOST_TEST(first_attempt().get_string("outcome") == "error");
  BOOST_TEST(first_attempt().get_string("outcome_type") == "setup.failed");
}

BOOST_AUTO_TEST_CASE(a_turn_limit_fails_the_attempt) {
  repo.write("tasks/long.yaml", R"(prompt: Read forever.
limits: {turns: 2}
script:
  - call: {tool: read_file, input: {path: greet.sh}}
  - call: {tool: read_file, input: {path: greet.sh}}
  - call: {tool: read_file, input: {path: greet.sh}}
)");
  CommandResult result = run_agent_run({"tasks/long.yaml", "--out", out.path().string()}, repo.path());
  BOOST_TEST(result.exit_code == 1);
  BOOST_TEST(first_attempt().get_string("outcome_type") == "limit.turns");
}

BOOST_AUTO_TEST_CASE(a_bad_task_file_stops_the_run_before_anything_runs) {
  repo.write("tasks/bad.yaml", "prompt: x\nlimits:\n  turns: 3\n  tme: 5m\n");
  CommandResult result =
      run_agent_run({"tasks/greet.yaml", "tasks/bad.yaml", "--out", (out.path() / "r").string()}, repo.path());
  BOOST_TEST(result.exit_code == 2);
  BOOST_TEST(result.output.find("tasks/bad.yaml:4:3: unknown key 'tme'") != std::string::npos);
  BOOST_TEST(result.output.find("nothing ran") != std::string::npos);
  BOOST_TEST(!std::filesystem::exists(out.path() / "r"));
}

BOOST_AUTO_TEST_CASE(validate_and_run_refuse_a_script_that_calls_what_the_task_cannot_before_anything_runs) {
  repo.write("tasks/typo.yaml", "prompt: x\ntools: [read_file]\nchecks: [{run: 'true'}]\nscript:\n"
                                "  - call: {tool: raed_file, input: {path: greet.sh}}\n"
                                "  - call: {tool: read_file, input: {pth: greet.sh}}\n"
                                "  - call: {tool: edit_file, input: {path: greet.sh, old: bye, new: hello}}\n");
  const std::string expected = "tasks/typo.yaml:5:18: 'script[0].call.tool': unknown tool 'raed_file' (did you mean "
                               "'read_file'?)\n"
                               "tasks/typo.yaml:6:37: 'script[1].call': read_file has no input 'pth' (did you mean "
                               "'path'?)\n"
                               "tasks/typo.yaml:7:18: 'script[2].call' calls edit_file, which the task's 'tools:' leaves "
                               "out (add it there, or the call is refused at run time)\n";
  CommandResult validated = run_agent_run({"validate", "tasks/typo.yaml"}, repo.path());
  BOOST_TEST(validated.exit_code == 2);
  BOOST_TEST(validated.output == expected, validated.output);
  CommandResult ran = run_agent_run({"tasks/typo.yaml", "--out", (out.path() / "r").string()}, repo.path());
  BOOST_TEST(ran.exit_code == 2);
  BOOST_TEST(ran.output == expected + "agent-run: nothing ran\n", ran.output);
  BOOST_TEST(!std::filesystem::exists(out.path() / "r"));
}

BOOST_AUTO_TEST_CASE(a_task_without_checks_is_warned_about_on_the_console_and_in_the_report) {
  repo.write("tasks/unchecked.yaml", "prompt: x\npolicy: ../policy.yaml\nscript:\n  - say: done\n");
  const std::string warning = "task 'unchecked' has no checks: every attempt that ends without an error passes; "
                              "add 'checks:' (--require-checks or require_checks: true in agent-run.yaml makes this "
                              "an error)";
  CommandResult result = run_agent_run({"tasks/unchecked.yaml", "--out", out.path().string()}, repo.path());
  BOOST_TEST(result.exit_code == 0, result.output);
  BOOST_TEST(result.output.find("agent-run: tasks/unchecked.yaml: warning: " + warning) != std::string::npos,
             result.output);
  const Json::Array& warnings = first_attempt().find("warnings")->as_array();
  BOOST_TEST(std::any_of(warnings.begin(), warnings.end(), [&](const Json& w) { return w.as_string() == warning; }));

  CommandResult required =
      run_agent_run({"tasks/unchecked.yaml", "--require-checks", "--out", (out.path() / "r").string()}, repo.path());
  BOOST_TEST(required.exit_code == 2);
  BOOST_TEST(required.output == "tasks/unchecked.yaml: task 'unchecked' has no checks, and require_checks "
                                "(--require-checks or agent-run.yaml) needs them: add 'checks:'\nagent-run: nothing ran\n",
             required.output);
  repo.write("agent-run.yaml", "require_checks: true\n");
  CommandResult configured = run_agent_run({"validate", "tasks/unchecked.yaml"}, repo.path());
  BOOST_TEST(configured.exit_code == 2);
  BOOST_TEST(configured.output.find("needs them: add 'checks:'") != std::string::npos, configured.output);
}

BOOST_AUTO_TEST_CASE(validate_warns_at_the_check_whose_project_gate_checker_is_not_on_the_runs_path) {
  repo.write("tasks/named.yaml",
             "prompt: x\npolicy: ../policy.yaml\nchecks:\n  - no_new_diagnostics: project\n"
             "    checker: tsc\nscript: [{say: hi}]\n");
  repo.write("tasks/chosen.yaml",
             "prompt: x\npolicy: ../policy.yaml\nchecks:\n  - run: 'true'\n"
             "  - no_new_diagnostics: project\nscript: [{say: hi}]\n");
  repo.write("app.py", "print(1)\n");  // Python: pyright, else ruff
  // The PATH the run would use: the machine's /usr/bin and /bin, where neither tsc, pyright nor ruff is.
  CommandResult validated = run_shell(
      "PATH=/usr/bin:/bin " + shell_quote(test::agent_run_binary()) + " validate tasks/named.yaml tasks/chosen.yaml",
      repo.path());
  BOOST_TEST(validated.exit_code == 0, validated.output);
  BOOST_TEST(validated.output ==
                 "tasks/named.yaml:5:14: warning: 'checks[0]' (no_new_diagnostics: project): the checker 'tsc' it "
                 "names is not installed (neither in the project's node_modules/.bin nor on PATH); install it: npm "
                 "install typescript; unless setup installs it, each attempt ends before the agent's first turn\n"
                 "tasks/chosen.yaml:5:25: warning: 'checks[1]' (no_new_diagnostics: project): the project holds "
                 "Python but no checker for it is installed (pyright or ruff, neither in the project's "
                 "node_modules/.bin nor on PATH); install one (npm install pyright, or pipx install ruff), or name "
                 "another with 'checker:'; unless setup installs it, each attempt ends before the agent's first "
                 "turn\n"
                 "tasks/named.yaml: valid task 'named'\ntasks/chosen.yaml: valid task 'chosen'\n",
             validated.output);
  // With the project's own tsc in node_modules/.bin, the named checker is found and nothing is said.
  fs::create_directories(repo.path() / "node_modules/.bin");
  fs::create_symlink(tools_folder() / "node_modules/.bin/tsc", repo.path() / "node_modules/.bin/tsc");
  CommandResult found = run_shell(
      "PATH=/usr/bin:/bin " + shell_quote(test::agent_run_binary()) + " validate tasks/named.yaml", repo.path());
  BOOST_TEST(found.output == "tasks/named.yaml: valid task 'named'\n", found.output);
}

BOOST_AUTO_TEST_CASE(a_missing_policy_names_the_task_that_wants_it) {
  repo.write("tasks/lost.yaml", "prompt: x\npolicy: ../nowhere.yaml\nscript: [{say: hi}]\n");
  CommandResult result = run_agent_run({"tasks/lost.yaml", "--out", out.path().string()}, repo.path());
  BOOST_TEST(result.exit_code == 2);
  BOOST_TEST(result.output == (repo.path() / "nowhere.yaml").string() +
                                  ": cannot read: No such file or directory\n  (the policy named by tasks/lost.yaml:2:9)\n"
                                  "agent-run: nothing ran\n");
}

// permissive.yaml allows the commands its rules do not name only because the sandbox confines them:
// turning the sandbox off, by the task or by the flag, must stop the run before anything runs.
BOOST_AUTO_TEST_CASE(a_sandbox_turned_off_under_permissive_yaml_stops_the_run_before_anything_runs) {
  auto permissive = read_file(source_root() / "policies/permissive.yaml");
  BOOST_REQUIRE(permissive.has_value());
  repo.write("permissive.yaml", *permissive);
  repo.write("tasks/open.yaml", "prompt: x\npolicy: ../permissive.yaml\nsandbox: off\n"
                                "script:\n  - call: {tool: bash, input: {command: \"touch ran-anyway\"}}\n  - say: done\n");
  repo.write("tasks/flagged.yaml", "prompt: x\npolicy: ../permissive.yaml\n"
                                   "script:\n  - call: {tool: bash, input: {command: \"touch ran-anyway\"}}\n  - say: done\n");
  CommandResult by_task = run_agent_run({"tasks/open.yaml", "--out", (out.path() / "a").string()}, repo.path());
  BOOST_TEST(by_task.exit_code == 2, by_task.output);
  BOOST_TEST(by_task.output.find("tasks/open.yaml:3: 'sandbox: off' turns the sandbox off, but its policy") !=
                 std::string::npos,
             by_task.output);
  BOOST_TEST(by_task.output.find("sandboxed_bash: allow") != std::string::npos, by_task.output);
  BOOST_TEST(by_task.output.find("nothing ran") != std::string::npos, by_task.output);
  CommandResult by_flag =
      run_agent_run({"tasks/flagged.yaml", "--sandbox", "off", "--out", (out.path() / "b").string()}, repo.path());
  BOOST_TEST(by_flag.exit_code == 2, by_flag.output);
  BOOST_TEST(by_flag.output.find("'--sandbox off' turns the sandbox off") != std::string::npos, by_flag.output);
  BOOST_TEST(!std::filesystem::exists(repo.path() / "ran-anyway"));
  BOOST_TEST(!std::filesystem::exists(out.path() / "a"));
  BOOST_TEST(!std::filesystem::exists(out.path() / "b"));
}

BOOST_AUTO_TEST_CASE(validate_checks_files_without_running_them) {
  CommandResult good = run_agent_run({"validate", "tasks/greet.yaml", "policy.yaml"}, repo.path());
  BOOST_TEST_INFO(good.output);
  BOOST_TEST(good.exit_code == 0);
  BOOST_TEST(good.output.find("tasks/greet.yaml: valid task 'greet'") != std::string::npos);
  BOOST_TEST(!std::filesystem::exists(repo.path() / "agent-run-out"));
  repo.write("bad-policy.yaml", "version: 1\nrules:\n  - id: x\n    allow: [bsh]\n");
  CommandResult bad = run_agent_run({"validate", "bad-policy.yaml"}, repo.path());
  BOOST_TEST(bad.exit_code == 2);
  BOOST_TEST(bad.output.find("bad-policy.yaml:4") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(unknown_options_are_refused_with_a_suggestion) {
  CommandResult result = run_agent_run({"tasks/greet.yaml", "--polcy", "x"}, repo.path());
  BOOST_TEST(result.exit_code == 2);
  BOOST_TEST(result.output ==
             "agent-run: unknown option '--polcy' (did you mean '--policy'?)\ntry 'agent-run --help'\n");
}

// The grade a run's exit code gives is its worst attempt's, and a failure is worse than an error:
// a failed check means the work is wrong, whatever else could not be judged.
BOOST_AUTO_TEST_CASE(one_failed_attempt_and_one_error_exit_1_not_3) {
  repo.write("tasks/a-fails.yaml", "prompt: x\nchecks:\n  - run: \"false\"\nscript: [{say: hi}]\n");
  repo.write("tasks/b-errs.yaml", "prompt: x\nsetup: [\"exit 7\"]\nscript: [{say: hi}]\n");
  for (const std::vector<std::string>& order : {std::vector<std::string>{"tasks/a-fails.yaml", "tasks/b-errs.yaml"},
                                                std::vector<std::string>{"tasks/b-errs.yaml", "tasks/a-fails.yaml"}}) {
    CommandResult result = run_agent_run({order[0], order[1], "--out", out.path().string()}, repo.path());
    BOOST_TEST_INFO(result.output);
    BOOST_TEST(result.exit_code == 1);
    const Json written = report();
    const Json::Array& attempts = written.find("attempts")->as_array();
    BOOST_REQUIRE(attempts.size() == 2u);
    BOOST_TEST(attempts[0].get_string("outcome") == "failed");
    BOOST_TEST(attempts[1].get_string("outcome") == "error");
  }
  CommandResult only_error = run_agent_run({"tasks/b-errs.yaml", "--out", out.path().string()}, repo.path());
  BOOST_TEST(only_error.exit_code == 3);  // the control: the error alone is a 3
}

// In a real run, with the workspace being the repository itself and the report folder inside it,
// every way the agent has to write the task file, the policy file or the reports is refused,
// whatever the policy allows, and the run's files are as the run wrote them.
BOOST_AUTO_TEST_CASE(the_task_file_policy_file_and_report_folder_are_protected_in_a_real_run) {
  repo.write("everything.yaml",
             "version: 1\nunmatched: deny\nrules:\n  - id: all\n    allow: [edit_file, write_file, bash]\n");
  const std::string task = R"(prompt: Overwrite what runs you.
workspace: {isolation: in-place}
policy: ../everything.yaml
script:
  - call: {tool: read_file, input: {path: tasks/protect.yaml}}
  - calls:
      - {tool: edit_file, input: {path: tasks/protect.yaml, old: "Overwrite", new: "Obey"}}
      - {tool: write_file, input: {path: tasks/protect.yaml, content: "prompt: x\n"}}
      - {tool: write_file, input: {path: everything.yaml, content: "version: 1\n"}}
      - {tool: write_file, input: {path: out/report.json, content: "{}"}}
      - {tool: write_file, input: {path: out/attempts/protect/1/patch.diff, content: ""}}
      - {tool: bash, input: {command: "rm -f tasks/protect.yaml"}}
      - {tool: bash, input: {command: "touch out/junit.xml"}}
      - {tool: bash, input: {command: "cp greet.sh everything.yaml"}}
      - {tool: write_file, input: {path: notes.txt, content: "allowed\n"}}
  - say: Done.
)";
  repo.write("tasks/protect.yaml", task);
  run_shell("git add -A && git -c user.name=t -c user.email=t@example.invalid commit -qm task", repo.path());
  CommandResult result = run_agent_run({"tasks/protect.yaml", "--out", "out"}, repo.path());
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 0);
  auto parsed = parse_json(repo.read("out/report.json"));
  BOOST_REQUIRE_MESSAGE(parsed.has_value(), "out/report.json does not parse");
  const Json::Array& calls = parsed->find("attempts")->as_array().at(0).find("tool_calls")->as_array();
  BOOST_REQUIRE_EQUAL(calls.size(), 10u);
  for (std::size_t i = 1; i < 9; ++i) {
    BOOST_TEST_CONTEXT("call " << i << ": " << calls[i].get_string("input_summary")) {
      BOOST_TEST(calls[i].get_string("decision") == "denied");
      BOOST_TEST(calls[i].get_string("decided_by") == "protected_path");
    }
  }
  BOOST_TEST(calls[9].get_string("decision") == "allowed");  // the control: an ordinary file is written
  BOOST_TEST(repo.read("notes.txt") == "allowed\n");
  BOOST_TEST(repo.read("tasks/protect.yaml") == task);
  BOOST_TEST(repo.read("everything.yaml").starts_with("version: 1\nunmatched: deny\n"));
  BOOST_TEST(!fs::exists(repo.path() / "out/attempts/protect/1/patch.diff.tmp"));
  CommandResult xmllint =
      run_shell("xmllint --noout --schema " + shell_quote(test::junit_schema()) + " out/junit.xml", repo.path());
  BOOST_TEST(xmllint.exit_code == 0, xmllint.output);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(shipped_examples)

BOOST_AUTO_TEST_CASE(the_examples_all_pass_and_write_valid_reports) {
  TempFolder out;
  CommandResult result =
      run_shell(shell_quote(test::agent_run_binary()) + " tasks/examples/*.yaml --out " + shell_quote(out.path().string()),
                source_root());
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 0);
  auto report = parse_json(out.read("report.json"));
  BOOST_REQUIRE(report.has_value());
  BOOST_TEST(report->find("attempts")->as_array().size() >= 3u);
  check_report_folder(out.path());
}

BOOST_AUTO_TEST_SUITE_END()
