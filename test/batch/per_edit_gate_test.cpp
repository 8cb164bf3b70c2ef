// The per-edit gate (`no_new_diagnostics: true`) end to end: real git repositories, the scripted
// agent through the real loop in the attempt's sandbox, the real per-edit checker over a linter on
// PATH. The gate judges the final tree: the files an edit left a problem in, or whose check timed
// out, are checked again when the agent is done.
#include "base/files.h"
#include "batch_fixture.h"
#include "diagnostics/edit_checker.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <string>

using namespace agent_run;
using namespace agent_run::test;
namespace fs = std::filesystem;

namespace {

/// A pyflakes3 on PATH that is deterministic and can be held: it reports `undefined name
/// 'undefined_name'` on each line of a file holding that word, and, for a file holding
/// `breaks_other`, a warning in other.py (a file the agent never edits). While the workspace
/// holds a file `.hold` (made and removed by the agent's bash) it never answers, so the edit made
/// then times out.
constexpr const char* k_pyflakes = R"(#!/bin/sh
if [ "$1" = "--version" ]; then echo "9.9.9 fake"; exit 0; fi
if [ -e .hold ]; then exec sleep 600; fi
status=0
for file in "$@"; do
  grep -n undefined_name "$file" | cut -d: -f1 | while read -r line; do
    echo "$file:$line:1: undefined name 'undefined_name'"
  done
  grep -q undefined_name "$file" && status=1
  grep -q breaks_other "$file" && echo "$PWD/other.py:3:1: 'os' imported but unused" && status=1
done
exit $status
)";

/// A folder outside /tmp (so the sandbox sees it) holding the fake pyflakes3, first on PATH.
class FakeLinter {
 public:
  /// With links to `npm_programs` of .tools beside it (pyright for the project gate).
  explicit FakeLinter(const std::vector<std::string>& npm_programs = {}) {
    fs::create_directories(visible_scratch());
    auto made = make_unique_folder(visible_scratch(), "gate-linter-");
    BOOST_REQUIRE(made.has_value());
    m_folder = *made;
    BOOST_REQUIRE(write_file_atomically(m_folder / "pyflakes3", k_pyflakes).has_value());
    fs::permissions(m_folder / "pyflakes3", fs::perms::owner_all);
    for (const std::string& program : npm_programs) {
      const fs::path installed = tools_folder() / "node_modules/.bin" / program;
      BOOST_REQUIRE_MESSAGE(fs::exists(installed), program + " is not installed: run ci/install-diagnostics-tools.sh");
      fs::create_symlink(installed, m_folder / program);
    }
  }
  ~FakeLinter() {
    std::error_code ec;
    fs::remove_all(m_folder, ec);
  }
  std::vector<std::string> environment() const {
    return {"PATH=" + m_folder.string() + ":/usr/bin:/bin", "HOME=" + std::string(::getenv("HOME"))};
  }

 private:
  fs::path m_folder;
};

/// A task gated by `no_new_diagnostics: true` (and `more_checks`) whose scripted agent makes
/// `calls` (YAML lines).
std::string gated_task(const std::string& calls, const std::string& more_checks = "") {
  return "prompt: p\npolicy: ../policy.yaml\nchecks:\n  - no_new_diagnostics: true\n" + more_checks +
         "script:\n"
         "  - call: {tool: read_file, input: {path: app.py}}\n" +
         calls + "  - say: Done.\n";
}

std::string edit(const std::string& old, const std::string& replacement) {
  return "  - call: {tool: edit_file, input: {path: app.py, old: \"" + old + "\", new: \"" + replacement + "\"}}\n";
}

const std::string k_hold = "  - call: {tool: bash, input: {command: \"touch .hold\"}}\n";
const std::string k_release = "  - call: {tool: bash, input: {command: \"rm .hold\"}}\n";

/// Runs the fixture's one task with the fake linter and a per-edit budget the fake answers well
/// within on a loaded machine (only a held check runs out of it).
AttemptResult run_gated(BatchFixture& fixture, const FakeLinter& linter, EditChecker& checker) {
  BOOST_REQUIRE(write_file_atomically(fixture.repo / "app.py", "import os\n\nprint(os.getcwd())\n").has_value());
  BOOST_REQUIRE(write_file_atomically(fixture.repo / "other.py", "import os\n\nimport sys\n").has_value());
  CommandResult committed = run_shell(
      "git add -A && git -c user.name=test -c user.email=test@example.invalid commit -q -m project", fixture.repo);
  BOOST_REQUIRE_MESSAGE(committed.exit_code == 0, committed.output);
  fixture.settings.environment = linter.environment();
  fixture.settings.diagnostics = &checker;
  return run_attempt(fixture.plans().front(), fixture.settings);
}

DiagnosticsSettings budget_of_seconds(int seconds) {
  DiagnosticsSettings settings;
  settings.budget = std::chrono::seconds(seconds);
  return settings;
}

const CheckRecord& gate_of(const AttemptResult& result) {
  BOOST_REQUIRE(!result.checks.empty());
  return result.checks.front();
}

std::string statuses(const AttemptResult& result) {
  std::string text;
  for (const EditRecord& edit : result.edits) {
    text += edit.diagnostics ? edit.diagnostics->checker + ":" + edit.diagnostics->status + " " : "off ";
  }
  return text;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(per_edit_gate)

BOOST_AUTO_TEST_CASE(a_problem_fixed_by_an_edit_whose_check_timed_out_is_not_left_behind) {
  BatchFixture fixture({{"t.yaml", gated_task(edit("os.getcwd()", "undefined_name") + k_hold +
                                              edit("undefined_name", "os.getcwd()") + k_release)}});
  FakeLinter linter;
  EditChecker checker(budget_of_seconds(15));
  AttemptResult result = run_gated(fixture, linter, checker);
  BOOST_REQUIRE(result.edits.size() == 2u);
  BOOST_TEST(result.edits[0].diagnostics->status == "problems", statuses(result));
  BOOST_TEST(result.edits[1].diagnostics->status == "timeout", statuses(result));
  // The records alone say the first edit's problem was never resolved; the final tree has none.
  BOOST_TEST(gate_of(result).passed, gate_of(result).output_tail);
  BOOST_TEST(gate_of(result).output_tail == "the edits introduced no diagnostics\n");
  BOOST_TEST((result.outcome_type == OutcomeType::passed), result.message);
}

BOOST_AUTO_TEST_CASE(an_edit_whose_check_timed_out_is_checked_again_never_taken_as_clean) {
  // The breaking edit's check times out; the next edit's check sees the problem as already there.
  BatchFixture fixture({{"t.yaml", gated_task(k_hold + edit("os.getcwd()", "undefined_name") + k_release +
                                              edit("import os", "import os  # the os module"))}});
  FakeLinter linter;
  EditChecker checker(budget_of_seconds(15));
  AttemptResult result = run_gated(fixture, linter, checker);
  BOOST_REQUIRE(result.edits.size() == 2u);
  BOOST_TEST(result.edits[0].diagnostics->status == "timeout", statuses(result));
  BOOST_TEST(result.edits[1].diagnostics->introduced.empty(), statuses(result));
  BOOST_TEST(!gate_of(result).passed);
  BOOST_TEST(gate_of(result).exit_code == 1);
  BOOST_TEST(gate_of(result).output_tail ==
             "1 diagnostic introduced by the edits:\napp.py:3:1: error: undefined name 'undefined_name'\n");
  BOOST_TEST((result.outcome_type == OutcomeType::check_failed), result.message);
}

BOOST_AUTO_TEST_CASE(a_timed_out_edit_followed_by_a_fix_passes) {
  BatchFixture fixture({{"t.yaml", gated_task(k_hold + edit("os.getcwd()", "undefined_name") + k_release +
                                              edit("undefined_name", "os.getcwd()"))}});
  FakeLinter linter;
  EditChecker checker(budget_of_seconds(15));
  AttemptResult result = run_gated(fixture, linter, checker);
  BOOST_REQUIRE(result.edits.size() == 2u);
  BOOST_TEST(result.edits[0].diagnostics->status == "timeout", statuses(result));
  BOOST_TEST(gate_of(result).passed, gate_of(result).output_tail);
  BOOST_TEST((result.outcome_type == OutcomeType::passed), result.message);
}

BOOST_AUTO_TEST_CASE(a_problem_in_a_file_the_agent_never_edited_is_never_introduced) {
  BatchFixture fixture({{"t.yaml", gated_task(edit("print(os.getcwd())", "print(os.getcwd())  # breaks_other"))}});
  FakeLinter linter;
  EditChecker checker(budget_of_seconds(60));
  AttemptResult result = run_gated(fixture, linter, checker);
  BOOST_REQUIRE(result.edits.size() == 1u);
  BOOST_REQUIRE(result.edits[0].diagnostics.has_value());
  // The edit's check reported it, as a neighbour's: the model was told; the gate does not count it.
  BOOST_REQUIRE_MESSAGE(result.edits[0].diagnostics->introduced.size() == 1u, statuses(result));
  BOOST_TEST(result.edits[0].diagnostics->introduced[0].path == "other.py");
  BOOST_TEST(gate_of(result).passed, gate_of(result).output_tail);
  BOOST_TEST((result.outcome_type == OutcomeType::passed), result.message);
}

BOOST_AUTO_TEST_CASE(the_per_edit_gate_and_the_project_gate_agree_about_a_file_both_checked) {
  // The per-edit checker reports a problem pyright, the project's checker, does not find: the file
  // is judged once, by the project gate's findings.
  BatchFixture fixture({{"t.yaml", gated_task(edit("print(os.getcwd())", "print(os.getcwd())  # undefined_name"),
                                              "  - no_new_diagnostics: project\n    checker: pyright\n")}});
  FakeLinter linter({"pyright"});
  EditChecker checker(budget_of_seconds(60));
  AttemptResult result = run_gated(fixture, linter, checker);
  BOOST_REQUIRE(result.edits.size() == 1u);
  BOOST_REQUIRE_MESSAGE(result.edits[0].diagnostics->introduced.size() == 1u, statuses(result));
  BOOST_REQUIRE(result.checks.size() == 2u);
  BOOST_TEST(result.checks[1].run == "no_new_diagnostics: project");
  BOOST_TEST(result.checks[1].passed, result.checks[1].output_tail);
  BOOST_TEST(result.checks[0].passed, result.checks[0].output_tail);
  BOOST_TEST((result.outcome_type == OutcomeType::passed), result.message);
}

BOOST_AUTO_TEST_SUITE_END()
