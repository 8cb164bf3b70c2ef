#include "batch/no_new_diagnostics.h"

#include <boost/test/unit_test.hpp>

#include <string>

using namespace agent_run;

namespace {

Problem undefined_at(int line) {
  return Problem{"_parser.py", line, 15, "error", "undefined name 'skip_chars'", "", false};
}

/// One edit whose check found `introduced` new and `resolved` gone.
EditRecord edit_with(std::vector<Problem> introduced, std::vector<Problem> resolved = {}) {
  EditRecord edit;
  edit.path = "_parser.py";
  EditDiagnostics diagnostics;
  diagnostics.status = "problems";
  diagnostics.introduced = std::move(introduced);
  diagnostics.resolved = std::move(resolved);
  edit.diagnostics = std::move(diagnostics);
  return edit;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(no_new_diagnostics)

BOOST_AUTO_TEST_CASE(each_problem_is_listed_at_its_own_position_and_the_rest_counted) {
  std::vector<Problem> thirteen;
  for (int i = 0; i < 13; ++i) thirteen.push_back(undefined_at(100 + i));
  CheckRecord check = judge_no_new_diagnostics({edit_with(thirteen)}, true);
  BOOST_TEST(!check.passed);
  std::string expected = "13 diagnostics introduced by the edits:\n";
  for (int i = 0; i < 10; ++i) {
    expected += "_parser.py:" + std::to_string(100 + i) + ":15: error: undefined name 'skip_chars'\n";
  }
  expected += "... 3 more not shown\n";
  BOOST_TEST(check.output_tail == expected);
}

BOOST_AUTO_TEST_CASE(a_problem_a_later_edit_resolves_is_the_one_at_its_position) {
  CheckRecord check = judge_no_new_diagnostics(
      {edit_with({undefined_at(169), undefined_at(188), undefined_at(581)}), edit_with({}, {undefined_at(188)})}, true);
  BOOST_TEST(check.output_tail ==
             "2 diagnostics introduced by the edits:\n"
             "_parser.py:169:15: error: undefined name 'skip_chars'\n"
             "_parser.py:581:15: error: undefined name 'skip_chars'\n");
  CheckRecord one = judge_no_new_diagnostics({edit_with({undefined_at(7)})}, true);
  BOOST_TEST(one.output_tail == "1 diagnostic introduced by the edits:\n_parser.py:7:15: error: undefined name "
                                "'skip_chars'\n");
}

BOOST_AUTO_TEST_CASE(a_problem_from_before_fixed_and_brought_back_is_not_new) {
  CheckRecord check =
      judge_no_new_diagnostics({edit_with({}, {undefined_at(3)}), edit_with({undefined_at(3)})}, true);
  BOOST_TEST(check.passed, check.output_tail);
  BOOST_TEST(check.output_tail == "the edits introduced no diagnostics\n");
}

BOOST_AUTO_TEST_CASE(a_file_whose_final_check_gives_no_answer_cannot_be_judged) {
  EditRecord slow = edit_with({});
  slow.diagnostics->status = "timeout";
  int asked = 0;
  RecheckFile no_answer = [&](const std::string& path) -> Expected<FinalFileCheck> {
    ++asked;
    return make_error("pyflakes gave no answer (timeout) for " + path);
  };
  CheckRecord check = judge_no_new_diagnostics({slow}, true, no_answer);
  BOOST_TEST(asked == 1);
  BOOST_TEST(!check.passed);
  BOOST_TEST(check.exit_code == -1);
  BOOST_TEST(check.output_tail == "no_new_diagnostics cannot be judged: the final tree's check of _parser.py: "
                                  "pyflakes gave no answer (timeout) for _parser.py\n");
}

BOOST_AUTO_TEST_CASE(a_file_a_project_gate_reads_is_judged_by_its_findings) {
  ProjectFindings project{[](const std::string& path) { return path.ends_with(".py"); }, {undefined_at(40)}};
  bool asked = false;
  RecheckFile recheck = [&](const std::string&) -> Expected<FinalFileCheck> {
    asked = true;
    return FinalFileCheck{};
  };
  CheckRecord check = judge_no_new_diagnostics({edit_with({})}, true, recheck, {project});
  BOOST_TEST(!asked);
  BOOST_TEST(!check.passed);
  BOOST_TEST(check.output_tail == "1 diagnostic introduced by the edits:\n_parser.py:40:15: error: undefined name "
                                  "'skip_chars'\n");
}

BOOST_AUTO_TEST_SUITE_END()
