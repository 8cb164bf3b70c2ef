#include "app/github_step.h"

#include "report/sample_report.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

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

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
