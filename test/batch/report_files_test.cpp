// The files an attempt's report names are there: a patch.diff or a transcript that cannot be
// written (a folder in the way, as a full or read-only disk would refuse it: the tests run as root,
// so no permission stops a write) makes the attempt an error, and the report
// does not name the file (the outcome type is runner.crashed: agent-run failed at its own job).
#include "batch/batch_fixture.h"

#include <boost/test/unit_test.hpp>

namespace agent_run {
namespace {

using test::BatchFixture;
using test::RecordingObserver;

const char* const k_editing_task = R"(prompt: Write the greeting.
policy: ../policy.yaml
checks:
  - run: grep -q hello greeting.txt
script:
  - say: Writing it.
    call: {tool: write_file, input: {path: greeting.txt, content: "hello\n"}}
  - say: Done.
)";

const AttemptResult& only_attempt(const RunReport& report) {
  BOOST_REQUIRE_EQUAL(report.attempts.size(), 1u);
  return report.attempts[0];
}

RunReport run(BatchFixture& fixture) {
  RecordingObserver observer;
  auto report = run_batch(fixture.plans(), fixture.settings, RunReport{}, observer, 1);
  BOOST_REQUIRE(report.has_value());
  return *report;
}

/// Each file the attempt's report names is a regular file in the report folder.
void require_named_files_exist(const BatchFixture& fixture, const AttemptResult& attempt) {
  for (const std::string& named : {attempt.patch_path, attempt.transcript_path, attempt.output_path}) {
    if (!named.empty()) BOOST_TEST(std::filesystem::is_regular_file(fixture.out / named), named);
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(report_files)

BOOST_AUTO_TEST_CASE(a_passing_attempt_whose_patch_cannot_be_written_is_an_error_naming_no_patch) {
  BatchFixture fixture(std::map<std::string, std::string>{{"greet.yaml", k_editing_task}});
  std::filesystem::create_directories(fixture.out / "attempts/greet/1/patch.diff/in-the-way");
  const AttemptResult& attempt = only_attempt(run(fixture));
  BOOST_TEST(to_string(attempt.outcome) == "error");
  BOOST_TEST(to_string(attempt.outcome_type) == "runner.crashed");
  BOOST_TEST(attempt.message.find("could not write patch.diff: ") == 0, attempt.message);
  BOOST_TEST(attempt.message.find("(the attempt had passed)") != std::string::npos, attempt.message);
  BOOST_TEST(attempt.patch_path.empty());
  BOOST_TEST(attempt.patch.lines_added == 1);  // the patch was computed: only its file is missing
  require_named_files_exist(fixture, attempt);
}

BOOST_AUTO_TEST_CASE(a_transcript_that_cannot_be_written_is_an_error_and_is_not_named) {
  BatchFixture fixture(std::map<std::string, std::string>{{"greet.yaml", k_editing_task}});
  std::filesystem::create_directories(fixture.out / "attempts/greet/1/transcript.jsonl/in-the-way");
  const AttemptResult& attempt = only_attempt(run(fixture));
  BOOST_TEST(to_string(attempt.outcome_type) == "runner.crashed");
  BOOST_TEST(attempt.message.find("the transcript: cannot open ") != std::string::npos, attempt.message);
  BOOST_TEST(attempt.transcript_path.empty());
  BOOST_TEST(!attempt.patch_path.empty());
  require_named_files_exist(fixture, attempt);
}

BOOST_AUTO_TEST_CASE(an_attempt_whose_files_are_written_names_each_and_passes) {
  BatchFixture fixture(std::map<std::string, std::string>{{"greet.yaml", k_editing_task}});
  const AttemptResult& attempt = only_attempt(run(fixture));
  BOOST_TEST(to_string(attempt.outcome_type) == "passed", attempt.message);
  BOOST_TEST(!attempt.patch_path.empty());
  BOOST_TEST(!attempt.transcript_path.empty());
  require_named_files_exist(fixture, attempt);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
