#include "base/json.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;
using namespace agent_run::test;

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
  CommandResult xmllint = run_shell("xmllint --noout --schema " + shell_quote(JUNIT_SCHEMA) + " junit.xml", out.path());
  BOOST_TEST_INFO(xmllint.output);
  BOOST_TEST(xmllint.exit_code == 0);
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

BOOST_AUTO_TEST_CASE(a_missing_policy_names_the_task_that_wants_it) {
  repo.write("tasks/lost.yaml", "prompt: x\npolicy: ../nowhere.yaml\nscript: [{say: hi}]\n");
  CommandResult result = run_agent_run({"tasks/lost.yaml", "--out", out.path().string()}, repo.path());
  BOOST_TEST(result.exit_code == 2);
  BOOST_TEST(result.output == (repo.path() / "nowhere.yaml").string() +
                                  ": cannot read: No such file or directory\n  (the policy named by tasks/lost.yaml:2:9)\n"
                                  "agent-run: nothing ran\n");
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

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(shipped_examples)

BOOST_AUTO_TEST_CASE(the_examples_all_pass_and_write_valid_reports) {
  TempFolder out;
  CommandResult result =
      run_shell(shell_quote(AGENT_RUN_BINARY) + " tasks/examples/*.yaml --out " + shell_quote(out.path().string()),
                source_root());
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 0);
  auto report = parse_json(out.read("report.json"));
  BOOST_REQUIRE(report.has_value());
  BOOST_TEST(report->find("attempts")->as_array().size() >= 3u);
  CommandResult xmllint = run_shell("xmllint --noout --schema " + shell_quote(JUNIT_SCHEMA) + " junit.xml", out.path());
  BOOST_TEST(xmllint.exit_code == 0);
}

BOOST_AUTO_TEST_SUITE_END()
