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
)";

// Breaks app.py (an undefined name), then adds a clean new file; the task requires no new diagnostics.
const char* k_task = R"yaml(prompt: Add a report line.
policy: ../policy.yaml
checks:
  - no_new_diagnostics: true
script:
  - call: {tool: read_file, input: {path: app.py}}
  - call: {tool: edit_file, input: {path: app.py, old: "print(total)", new: "print(total, missing_name)"}}
  - call: {tool: write_file, input: {path: extra.py, content: "VALUE = 1\n"}}
  - say: Done.
)yaml";

/// A git repository with a small Python project and the task, run by the real binary.
struct DiagnosticsRunFixture {
  TempFolder repo;
  TempFolder out;
  DiagnosticsRunFixture() {
    make_git_repository(
        repo.path(),
        {{"app.py", "total = 1\nprint(total)\n"}, {"policy.yaml", k_policy}, {"tasks/report.yaml", k_task}});
  }
  Json attempt() const {
    auto parsed = parse_json(out.read("report.json"));
    BOOST_REQUIRE_MESSAGE(parsed.has_value(), "report.json does not parse");
    return parsed->find("attempts")->as_array().at(0);
  }
  void expect_valid_report() const {
    CommandResult valid =
        run_shell("python3 " + shell_quote((source_root() / "test/fixtures/report/validate_json_schema.py").string()) +
                      " " + shell_quote((source_root() / "reports/report.schema.json").string()) + " report.json",
                  out.path());
    BOOST_TEST(valid.exit_code == 0, valid.output);
  }
};

}  // namespace

BOOST_FIXTURE_TEST_SUITE(diagnostics_end_to_end, DiagnosticsRunFixture)

// PATH holds pyflakes3 (installed by the project's scripts) but not the project's .tools, so the
// check is pyflakes': the result the model reads, the per-edit record and the check all show it.
BOOST_AUTO_TEST_CASE(an_edit_that_breaks_the_file_fails_no_new_diagnostics) {
  CommandResult result = run_agent_run({"tasks/report.yaml", "--out", out.path().string()}, repo.path());
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 1);
  Json attempt = this->attempt();
  BOOST_TEST(attempt.get_string("outcome") == "failed");
  BOOST_TEST(attempt.get_string("outcome_type") == "check.failed");
  const Json::Array& edits = attempt.find("edits")->as_array();
  BOOST_REQUIRE(edits.size() == 2u);
  const Json& broken = *edits[0].find("diagnostics");
  BOOST_TEST(broken.get_string("checker") == "pyflakes");
  BOOST_TEST(broken.get_string("status") == "problems");
  BOOST_TEST(broken.find("compared")->as_bool());
  const Json& introduced = broken.find("introduced")->as_array().at(0);
  BOOST_TEST(introduced.get_string("path") == "app.py");
  BOOST_TEST(introduced.find("line")->as_int() == 2);
  BOOST_TEST(introduced.get_string("message") == "undefined name 'missing_name'");
  BOOST_TEST(edits[1].find("diagnostics")->get_string("status") == "clean");
  const Json& check = attempt.find("checks")->as_array().at(0);
  BOOST_TEST(check.get_string("run") == "no_new_diagnostics");
  BOOST_TEST(
      check.get_string("output_tail").find("app.py:2:14: error: undefined name 'missing_name'") != std::string::npos,
      check.get_string("output_tail"));
  std::string transcript = out.read("attempts/report/1/transcript.jsonl");
  BOOST_TEST(
      transcript.find("diagnostics (pyflakes): 1 problem\\n  app.py:2:14: error: undefined name 'missing_name'") !=
      std::string::npos);
  expect_valid_report();
}

BOOST_AUTO_TEST_CASE(no_diagnostics_turns_the_check_off_and_the_check_cannot_be_judged) {
  CommandResult result =
      run_agent_run({"tasks/report.yaml", "--no-diagnostics", "--out", out.path().string()}, repo.path());
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 3);
  Json attempt = this->attempt();
  BOOST_TEST(attempt.get_string("outcome") == "error");
  BOOST_TEST(attempt.get_string("outcome_type") == "check.not_judged");
  BOOST_TEST(attempt.find("edits")->as_array().at(0).find("diagnostics")->is_null());
  BOOST_TEST(out.read("attempts/report/1/transcript.jsonl").find("diagnostics (") == std::string::npos);
  expect_valid_report();
}

BOOST_AUTO_TEST_CASE(diagnostics_off_in_the_task_leaves_edits_unchecked) {
  std::string task = k_task;
  task.replace(task.find("checks:\n  - no_new_diagnostics: true\n"), 37, "diagnostics: off\n");
  repo.write("tasks/quiet.yaml", task);
  CommandResult result = run_agent_run({"tasks/quiet.yaml", "--out", out.path().string()}, repo.path());
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 0);
  BOOST_TEST(attempt().find("edits")->as_array().at(0).find("diagnostics")->is_null());
  expect_valid_report();
}

BOOST_AUTO_TEST_SUITE_END()
