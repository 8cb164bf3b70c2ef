#include "report/report_folder.h"

#include "report/github_annotations.h"
#include "report/sample_report.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <string>

namespace agent_run {
namespace {

using namespace std::string_literals;

/// Every kind of text that has broken a report writer somewhere: control characters, invalid UTF-8,
/// `]]>`, quotes, line breaks, `%`, commas and colons, markup, and a huge output.
RunReport hostile_report() {
  const std::string hostile = "q\"uo'te <b>&amp; ]]> 100% a,b:c \r\n\t \x01\x07\x1b[31m \xff\xfe \xed\xa0\x80 `|` "s;
  RunReport report = test::sample_report();
  for (AttemptResult& attempt : report.attempts) {
    attempt.model = "m" + hostile;
    attempt.message = hostile + "\nsecond line";
    attempt.final_message = hostile + "</details></summary><script>x</script>";
    attempt.tool_calls.push_back(
        ToolCallRecord{1, "c" + hostile, "bash", hostile, "denied", "rule", "r" + hostile, hostile, 0, 0, true});
    attempt.checks.back().run = hostile;
    attempt.checks.back().output_tail = std::string(200 * 1024, 'x') + hostile;
    EditDiagnostics diagnostics;
    diagnostics.checker = hostile;
    diagnostics.status = "problems";
    Problem problem{"src/" + hostile + ".py", 3, 1, "error", hostile, hostile, false};
    diagnostics.problems = diagnostics.introduced = {problem};
    attempt.edits.back().diagnostics = diagnostics;
    attempt.edits.back().path = problem.path;  // a problem in the file the edit changed
  }
  return report;
}

/// A workflow command property as GitHub's runner reads it back (toolkit's unescapeProperty).
std::string unescape_property(std::string value) {
  for (auto [escaped, plain] : {std::pair{"%0D", "\r"}, {"%0A", "\n"}, {"%3A", ":"}, {"%2C", ","}, {"%25", "%"}}) {
    for (std::size_t at = value.find(escaped); at != std::string::npos; at = value.find(escaped, at + 1)) {
      value.replace(at, 3, plain);
    }
  }
  return value;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(report_folder)

BOOST_AUTO_TEST_CASE(hostile_text_leaves_every_report_valid) {
  test::TempFolder folder;
  ReportFolder reports(folder.path());
  auto written = reports.write(hostile_report());
  BOOST_REQUIRE_MESSAGE(written.has_value(), (written ? std::string() : written.error().message));
  test::check_report_folder(folder.path());
}

BOOST_AUTO_TEST_CASE(hostile_paths_and_titles_survive_the_annotations_round_trip) {
  RunReport report = hostile_report();
  RepositoryPaths paths{[](const AttemptResult&, const std::string& path) { return std::optional<std::string>(path); },
                        [](const AttemptResult& attempt) { return std::optional<std::string>(attempt.task_file); }};
  std::vector<std::string> commands = annotation_commands(report, paths);
  BOOST_REQUIRE(!commands.empty());
  bool saw_problem = false;
  for (const std::string& command : commands) {
    BOOST_TEST(command.find_first_of("\r\n") == std::string::npos);
    std::size_t end = command.find("::", 2);  // the properties end at the first `::` after the command
    std::string properties = command.substr(command.find(' ') + 1, end - command.find(' ') - 1);
    if (!properties.starts_with("file=src/")) continue;
    saw_problem = true;
    std::string file = properties.substr(5, properties.find(',') - 5);
    // The file property decodes to the path exactly as printable text shows it.
    BOOST_TEST(unescape_property(file).starts_with("src/q\"uo'te <b>&amp; ]]> 100% a,b:c \r\n\t #x01#x07#x1B[31m"));
    BOOST_TEST(properties.find(",line=3,col=1,title=") != std::string::npos);
  }
  BOOST_TEST(saw_problem);
}

BOOST_AUTO_TEST_CASE(a_patch_is_read_beneath_the_folder_only) {
  test::TempFolder folder;
  folder.write("attempts/t/1/patch.diff", "+new line\n");
  test::TempFolder elsewhere;
  elsewhere.write("secret.txt", "secret\n");
  std::filesystem::create_directories(folder.path() / "attempts/t/2");
  std::filesystem::create_symlink(elsewhere.path() / "secret.txt", folder.path() / "attempts/t/2/patch.diff");
  ReportFolder reports(folder.path());
  BOOST_TEST(reports.read_part("attempts/t/1/patch.diff", 100) == "+new line\n");
  BOOST_TEST(reports.read_part("attempts/t/1/patch.diff", 4) == "+new");
  BOOST_TEST(reports.read_part("attempts/t/2/patch.diff", 100).empty());  // a symlink out is not followed
  BOOST_TEST(reports.read_part("../" + elsewhere.path().filename().string() + "/secret.txt", 100).empty());
  BOOST_TEST(reports.read_part(elsewhere.path().string() + "/secret.txt", 100).empty());
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
