#include "app/github_step.h"

#include "report/sample_report.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <map>
#include <sstream>

namespace agent_run {

BOOST_AUTO_TEST_SUITE(github_step_reporting)

BOOST_AUTO_TEST_CASE(the_environment_says_what_to_tell_github) {
  GithubStep step = github_step(
      {"GITHUB_ACTIONS=true", "GITHUB_STEP_SUMMARY=/tmp/s.md", "GITHUB_OUTPUT=/tmp/o", "GITHUB_WORKSPACE=/work/repo"});
  BOOST_TEST(step.annotations);
  BOOST_TEST(step.summary->string() == "/tmp/s.md");
  BOOST_TEST(step.outputs->string() == "/tmp/o");
  BOOST_TEST(step.repository.string() == "/work/repo");
  GithubStep outside = github_step({"GITHUB_ACTIONS=false", "GITHUB_STEP_SUMMARY="});
  BOOST_TEST(!outside.annotations);
  BOOST_TEST(!outside.summary.has_value());
  BOOST_TEST(!outside.outputs.has_value());
}

BOOST_AUTO_TEST_CASE(the_summary_and_outputs_are_appended_after_what_the_step_wrote_before) {
  test::TempFolder folder;
  folder.write("summary.md", "## an earlier step's part\n");
  folder.write("output", "earlier=1\n");
  GithubStep step{false, folder.path() / "summary.md", folder.path() / "output", folder.path()};
  std::ostringstream out, err;
  tell_github(step, test::sample_report(), 1, folder.path() / "out", nullptr, out, err);
  std::string summary = folder.read("summary.md");
  BOOST_TEST(summary.starts_with("## an earlier step's part\n## \xE2\x9D\x8C agent-run: 1 of 4 attempts passed"));
  std::string output = folder.read("output");
  BOOST_TEST(output.starts_with("earlier=1\noutcome=failed\nattempts=4\n"));
  BOOST_TEST(output.ends_with("report-dir=" + (folder.path() / "out").string() + "\n"));
  BOOST_TEST(out.str().empty());  // no annotations outside GITHUB_ACTIONS=true
  BOOST_TEST(err.str().empty());
}

BOOST_AUTO_TEST_CASE(a_step_summary_already_near_the_limit_gets_nothing_more_but_a_warning) {
  test::TempFolder folder;
  folder.write("summary.md", std::string(999 * 1000, 'x'));
  GithubStep step{false, folder.path() / "summary.md", std::nullopt, folder.path()};
  std::ostringstream out, err;
  tell_github(step, test::sample_report(), 1, folder.path(), nullptr, out, err);
  BOOST_TEST(folder.read("summary.md").size() == 999u * 1000u);
  BOOST_TEST(err.str().find("is nearly at GitHub's 1 MiB limit; the summary is only in summary.md") !=
             std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_summary_fits_in_what_the_step_has_left) {
  test::TempFolder folder;
  folder.write("summary.md", std::string(996 * 1000, 'x'));
  GithubStep step{false, folder.path() / "summary.md", std::nullopt, folder.path()};
  std::ostringstream out, err;
  RunReport report = test::sample_report();
  for (AttemptResult& attempt : report.attempts) attempt.final_message = std::string(3000, 'm');
  tell_github(step, report, 1, folder.path(), nullptr, out, err);
  std::size_t size = folder.read("summary.md").size();
  BOOST_TEST(size > 996u * 1000u);
  BOOST_TEST(size <= 1000u * 1000u);
}

BOOST_AUTO_TEST_CASE(annotations_name_files_in_the_repository_and_only_when_github_actions_is_true) {
  test::TempFolder repository;
  RunReport report = test::sample_report();
  report.attempts[1].task_file = (repository.path() / "tasks/fix-bug.yaml").string();
  RepositoryPaths paths = repository_paths(repository.path(), {{"fix-bug", repository.path() / "app"}});
  BOOST_TEST(*paths.in_workspace(report.attempts[1], "src/a.py") == "app/src/a.py");
  BOOST_TEST(!paths.in_workspace(report.attempts[1], "/etc/passwd").has_value());
  BOOST_TEST(!paths.in_workspace(report.attempts[1], "../../outside.py").has_value());
  BOOST_TEST(*paths.task_file(report.attempts[1]) == "tasks/fix-bug.yaml");
  GithubStep step{true, std::nullopt, std::nullopt, repository.path()};
  std::ostringstream out, err;
  tell_github(step, report, 1, repository.path(), &paths, out, err);
  BOOST_TEST(out.str().starts_with("::error file=tasks/fix-bug.yaml,title=agent-run%3A fix-bug #2%3A check"),
             out.str());
}

/// The outputs of a $GITHUB_OUTPUT file read as GitHub's runner reads them (name=value lines and
/// name<<DELIMITER heredocs); the last value of a name wins.
static std::map<std::string, std::string> read_outputs(const std::string& text) {
  std::map<std::string, std::string> outputs;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    auto heredoc = line.find("<<");
    auto equals = line.find('=');
    if (heredoc != std::string::npos && (equals == std::string::npos || heredoc < equals)) {
      std::string delimiter = line.substr(heredoc + 2), value, part;
      bool first = true;
      while (std::getline(lines, part) && part != delimiter) {
        value += (first ? "" : "\n") + part;
        first = false;
      }
      outputs[line.substr(0, heredoc)] = value;
    } else if (equals != std::string::npos) {
      outputs[line.substr(0, equals)] = line.substr(equals + 1);
    }
  }
  return outputs;
}

BOOST_AUTO_TEST_CASE(the_one_attempts_final_message_is_an_output_however_many_lines_and_whatever_they_say) {
  test::TempFolder folder;
  folder.write("out/report.html", "<!doctype html>\n");
  RunReport report = test::sample_report();
  report.attempts.resize(1);
  const std::string answer = "Fixed it.\noutcome=passed\nEOF\nghadelimiter_0\nreport-dir<<EOF\n::warning::x";
  report.attempts.front().final_message = answer;
  GithubStep step{false, std::nullopt, folder.path() / "output", folder.path()};
  std::ostringstream out, err;
  tell_github(step, report, 1, folder.path() / "out", nullptr, out, err);
  auto outputs = read_outputs(folder.read("output"));
  BOOST_TEST(outputs["final-message"] == answer);
  BOOST_TEST(outputs["outcome"] == "failed");  // the answer's own `outcome=passed` line sets nothing
  BOOST_TEST(outputs["report-dir"] == (folder.path() / "out").string());
  BOOST_TEST(outputs["report-html"] == (folder.path() / "out" / "report.html").string());
  std::string delimiter = folder.read("output").substr(folder.read("output").find("final-message<<") + 15, 45);
  BOOST_TEST(delimiter.starts_with("ghadelimiter_"));
  BOOST_TEST(delimiter.size() == 45u);  // 13 + 32 hex digits
}

BOOST_AUTO_TEST_CASE(several_attempts_have_no_final_message_and_a_folder_without_report_html_no_report_html) {
  test::TempFolder folder;
  GithubStep step{false, std::nullopt, folder.path() / "output", folder.path()};
  std::ostringstream out, err;
  tell_github(step, test::sample_report(), 1, folder.path() / "out", nullptr, out, err);
  auto outputs = read_outputs(folder.read("output"));
  BOOST_TEST(!outputs.contains("final-message"));
  BOOST_TEST(!outputs.contains("report-html"));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
