#include "report/github_annotations.h"

#include "report/sample_report.h"

#include <boost/test/unit_test.hpp>

#include <string>

namespace agent_run {
namespace {

/// Workspaces are the repository's `app/` folder; task files sit in its `tasks/`.
RepositoryPaths paths_in_app() {
  return RepositoryPaths{[](const AttemptResult&, const std::string& path) -> std::optional<std::string> {
                           if (path.starts_with("/")) return std::nullopt;
                           return "app/" + path;
                         },
                         [](const AttemptResult& attempt) -> std::optional<std::string> { return attempt.task_file; }};
}

EditRecord edit_leaving(std::vector<Problem> introduced) {
  EditDiagnostics diagnostics;
  diagnostics.checker = "pyflakes";
  diagnostics.status = "problems";
  diagnostics.problems = introduced;
  diagnostics.introduced = std::move(introduced);
  diagnostics.compared = true;
  return EditRecord{2, "call_2", "edit_file", "src/a.py", 1, 1, diagnostics};
}

Problem error_at(const std::string& path, int line, const std::string& message) {
  return Problem{path, line, 4, "error", message, "F821", false};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(github_annotations)

BOOST_AUTO_TEST_CASE(a_failed_check_is_an_error_on_the_task_file_with_its_output) {
  RunReport report = test::sample_report();
  std::vector<std::string> commands = annotation_commands(report, paths_in_app());
  BOOST_REQUIRE(!commands.empty());
  BOOST_TEST(commands.front() ==
             "::error file=tasks/fix-bug.yaml,title=agent-run%3A fix-bug #2%3A check `python3 -m pytest -q` exited 1"
             "::FAILED test_a.py::test_parse");
}

BOOST_AUTO_TEST_CASE(a_problem_left_behind_is_annotated_on_its_line_in_the_repository) {
  RunReport report = test::sample_report();
  report.attempts[1].edits = {edit_leaving({error_at("src/a.py", 12, "undefined name 'x'")})};
  std::vector<std::string> commands = annotation_commands(report, paths_in_app());
  BOOST_REQUIRE(commands.size() == 2u);
  // The annotation on a source line comes first: it is the one a pull request shows beside the code.
  BOOST_TEST(commands[0] ==
             "::error file=app/src/a.py,line=12,col=4,title=agent-run%3A left behind by fix-bug #2"
             "::undefined name 'x' [F821]");
  BOOST_TEST(commands[1].starts_with("::error file=tasks/fix-bug.yaml"));
}

BOOST_AUTO_TEST_CASE(a_problem_resolved_by_a_later_edit_is_not_annotated) {
  RunReport report = test::sample_report();
  EditRecord fix = edit_leaving({});
  fix.diagnostics->resolved = {error_at("src/a.py", 12, "undefined name 'x'")};
  report.attempts[1].edits = {edit_leaving({error_at("src/a.py", 12, "undefined name 'x'")}), fix};
  BOOST_TEST(annotation_commands(report, paths_in_app()).size() == 1u);  // only the failed check
}

BOOST_AUTO_TEST_CASE(the_same_problem_from_several_attempts_is_one_annotation_naming_them) {
  RunReport report = test::sample_report();
  for (AttemptResult& attempt : report.attempts) attempt.edits = {edit_leaving({error_at("src/a.py", 3, "bad")})};
  std::vector<std::string> commands = annotation_commands(report, paths_in_app());
  BOOST_REQUIRE(commands.size() == 2u);
  BOOST_TEST(commands[0] ==
             "::error file=app/src/a.py,line=3,col=4,title=agent-run%3A left behind by 4 attempts "
             "(fix-bug #1%2C fix-bug #2%2C rename #1%2C rename #2)::bad [F821]");
}

BOOST_AUTO_TEST_CASE(a_problem_in_a_file_the_agent_never_edited_is_not_annotated) {
  RunReport report = test::sample_report();
  report.attempts[1].edits = {edit_leaving({error_at("regexp_test.go", 57, "hint of gopls")})};  // edits src/a.py
  BOOST_TEST(annotation_commands(report, paths_in_app()).size() == 1u);  // only the failed check
}

BOOST_AUTO_TEST_CASE(the_per_edit_gate_on_the_final_tree_decides_what_is_annotated) {
  RunReport report = test::sample_report();
  report.attempts[1].edits = {edit_leaving({error_at("src/a.py", 12, "undefined name 'x'")})};
  report.attempts[1].checks.push_back(CheckRecord{"no_new_diagnostics", true, 0, false, 900,
                                                  "the edits introduced no diagnostics\n"});
  BOOST_TEST(annotation_commands(report, paths_in_app()).size() == 1u);  // the final tree has it no more
  report.attempts[1].checks.back() =
      CheckRecord{"no_new_diagnostics", false, 1, false, 900,
                  "1 diagnostic introduced by the edits:\nsrc/a.py:14:4: error: undefined name 'y' [F821]\n"};
  std::vector<std::string> commands = annotation_commands(report, paths_in_app());
  BOOST_REQUIRE(commands.size() == 2u);  // the problem where it is now (a source line first), the failed check
  BOOST_TEST(commands[0] ==
             "::error file=app/src/a.py,line=14,col=4,title=agent-run%3A left behind by fix-bug #2"
             "::undefined name 'y' [F821]");
}

BOOST_AUTO_TEST_CASE(warnings_are_warnings_and_a_file_outside_the_repository_is_named_in_the_message) {
  RunReport report = test::sample_report();
  Problem warning{"src/a.py", 1, 1, "warning", "unused import os", "F401", false};
  report.attempts[0].edits = {edit_leaving({warning, error_at("/etc/x.py", 2, "outside")})};
  report.attempts[0].edits.push_back(EditRecord{3, "call_3", "write_file", "/etc/x.py", 1, 0});  // edited as well
  std::vector<std::string> commands = annotation_commands(report, paths_in_app());
  BOOST_REQUIRE(commands.size() == 3u);
  BOOST_TEST(
      commands[0] ==
      "::warning file=app/src/a.py,line=1,col=1,title=agent-run%3A left behind by fix-bug #1::unused import os [F401]");
  BOOST_TEST(commands[2] == "::error title=agent-run%3A left behind by fix-bug #1::/etc/x.py: outside [F821]");
}

BOOST_AUTO_TEST_CASE(hostile_paths_and_messages_are_escaped_so_they_cannot_add_properties_or_commands) {
  RunReport report = test::sample_report();
  report.attempts[1].checks.back().output_tail = "100% broken\r\n::add-mask::secret\n";
  report.attempts[1].checks.back().run = "echo a,b: c";
  report.attempts[1].edits = {edit_leaving({error_at("src/we,ird:name%.py", 7, "line one\nline two")})};
  report.attempts[1].edits.front().path = "src/we,ird:name%.py";
  std::vector<std::string> commands = annotation_commands(report, paths_in_app());
  BOOST_REQUIRE(commands.size() == 2u);
  BOOST_TEST(commands[1] ==
             "::error file=tasks/fix-bug.yaml,title=agent-run%3A fix-bug #2%3A check `echo a%2Cb%3A c` exited 1"
             "::100%25 broken%0D%0A::add-mask::secret");
  BOOST_TEST(commands[0] ==
             "::error file=app/src/we%2Cird%3Aname%25.py,line=7,col=4,title=agent-run%3A left behind by "
             "fix-bug #2::line one%0Aline two [F821]");
  for (const std::string& command : commands) BOOST_TEST(command.find('\n') == std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_same_check_failure_in_several_repeats_is_one_annotation_with_a_count) {
  RunReport report = test::sample_report();
  AttemptResult again = report.attempts[1];
  again.n = 3;
  report.attempts.push_back(again);
  std::vector<std::string> commands = annotation_commands(report, paths_in_app());
  BOOST_REQUIRE(commands.size() == 1u);
  BOOST_TEST(commands[0] ==
             "::error file=tasks/fix-bug.yaml,title=agent-run%3A 2 attempts (fix-bug #2%2C fix-bug #3)%3A check "
             "`python3 -m pytest -q` exited 1::FAILED test_a.py::test_parse");
}

BOOST_AUTO_TEST_CASE(a_check_failure_s_message_starts_at_its_first_error_line) {
  RunReport report = test::sample_report();
  std::string output;
  for (int i = 1; i <= 30; ++i) output += "collecting module " + std::to_string(i) + "\n";
  output += "Traceback (most recent call last):\n  File \"t.py\", line 3, in <module>\n    main()\n";
  for (int i = 1; i <= 9; ++i) output += "  frame " + std::to_string(i) + "\n";
  output += "AssertionError: 2 != 3\n";
  report.attempts[1].checks.back().output_tail = output;
  std::vector<std::string> commands = annotation_commands(report, paths_in_app());
  BOOST_REQUIRE(commands.size() == 1u);
  const std::string message = commands[0].substr(commands[0].find("::", 2) + 2);
  BOOST_TEST(message.starts_with("Traceback (most recent call last):"), message);
  BOOST_TEST(message.ends_with("AssertionError: 2 != 3"), message);
  BOOST_TEST(message.find("collecting") == std::string::npos, message);
}

BOOST_AUTO_TEST_CASE(beyond_github_s_limits_a_notice_counts_the_rest) {
  RunReport report = test::sample_report();
  std::vector<Problem> many;
  for (int i = 1; i <= 25; ++i) many.push_back(error_at("src/a.py", i, "problem " + std::to_string(i)));
  many.push_back(Problem{"src/a.py", 99, 1, "warning", "a warning", "W1", false});
  report.attempts[1].edits = {edit_leaving(many)};
  std::vector<std::string> commands = annotation_commands(report, paths_in_app());
  BOOST_REQUIRE(commands.size() == 12u);  // 10 errors, 1 warning, the notice
  BOOST_TEST(commands[0] ==
             "::error file=app/src/a.py,line=1,col=4,title=agent-run%3A left behind by fix-bug #2::problem 1 [F821]");
  BOOST_TEST(commands[9] ==
             "::error file=app/src/a.py,line=10,col=4,title=agent-run%3A left behind by fix-bug #2::problem 10 [F821]");
  BOOST_TEST(commands[10].starts_with("::warning file=app/src/a.py,line=99"));
  BOOST_TEST(commands[11] ==
             "::notice title=agent-run::16 more annotations not shown (GitHub shows 10 errors and 10 "
             "warnings of a step); the step summary and report.html list every failure");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
