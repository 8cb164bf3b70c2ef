// The journal beside report.json: what a run appends after each attempt between two whole rewrites,
// read back with report.json by read_report_file (--resume, merge, compare).
#include "report/report_journal.h"

#include "base/files.h"
#include "base/json.h"
#include "report/report_folder.h"
#include "report/report_reader.h"
#include "report/sample_report.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

namespace agent_run {
namespace {

namespace fs = std::filesystem;

/// The content of `file`, or "" when it cannot be read.
std::string text_of(const fs::path& file) {
  auto text = read_file(file);
  return text ? *text : std::string();
}

/// The report's attempts as `task #n outcome`.
std::vector<std::string> attempts_of(const RunReport& report) {
  std::vector<std::string> out;
  for (const AttemptResult& attempt : report.attempts) {
    out.push_back(attempt.task_id + " #" + std::to_string(attempt.n) + " " + to_string(attempt.outcome));
  }
  return out;
}

/// read_report_file on the folder's report.json, which must succeed.
RunReport read_back(const fs::path& folder) {
  auto report = read_report_file(folder / "report.json");
  BOOST_REQUIRE_MESSAGE(report.has_value(), (report ? std::string() : report.error().message));
  return *report;
}

/// How many attempts report.json itself holds, without its journal.
std::size_t attempts_in_report_json(const fs::path& folder) {
  auto json = parse_json(text_of(folder / "report.json"));
  BOOST_REQUIRE(json.has_value());
  return json->find("attempts")->as_array().size();
}

/// A report of sample_report's first two attempts, written with its journal started; the other two
/// are what the run finishes after that write.
struct RunBetweenRewrites {
  test::TempFolder folder;
  ReportFolder reports{folder.path()};
  RunReport written = test::sample_report();
  std::vector<AttemptResult> later;

  RunBetweenRewrites() {
    later.assign(written.attempts.begin() + 2, written.attempts.end());
    written.attempts.resize(2);
    auto done = reports.write(written, Journal::restarted);
    BOOST_REQUIRE_MESSAGE(done.has_value(), (done ? std::string() : done.error().message));
  }

  void append(const AttemptResult& attempt, long long run_duration_ms) {
    auto done = reports.append(attempt, run_duration_ms);
    BOOST_REQUIRE_MESSAGE(done.has_value(), (done ? std::string() : done.error().message));
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(report_journal)

BOOST_AUTO_TEST_CASE(attempts_appended_after_the_last_rewrite_are_read_back_with_the_report) {
  RunBetweenRewrites run;
  run.append(run.later[0], 7000);
  run.append(run.later[1], 8000);  // then the run is killed: report.json is not written again
  BOOST_TEST(attempts_in_report_json(run.folder.path()) == 2u);
  RunReport read = read_back(run.folder.path());
  BOOST_TEST(attempts_of(read) == (std::vector<std::string>{"fix-bug #1 passed", "fix-bug #2 failed", "rename #1 error",
                                                            "rename #2 skipped"}),
             boost::test_tools::per_element());
  BOOST_TEST(read.duration_ms == 8000);  // when the last of them finished
  BOOST_TEST(read.started_at == run.written.started_at);
  BOOST_TEST(read.attempts[2].message == run.later[0].message);
  BOOST_TEST(read.attempts[3].checks.back().output_tail == run.later[1].checks.back().output_tail);
}

BOOST_AUTO_TEST_CASE(a_line_cut_short_by_a_kill_is_left_out) {
  RunBetweenRewrites run;
  run.append(run.later[0], 7000);
  std::string whole = journal_line(run.later[1], 8000);
  auto cut = append_line(run.reports.journal(), whole.substr(0, whole.size() / 2));  // killed mid-write: no newline
  BOOST_REQUIRE(cut.has_value());
  BOOST_TEST(attempts_of(read_back(run.folder.path())) ==
                 (std::vector<std::string>{"fix-bug #1 passed", "fix-bug #2 failed", "rename #1 error"}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(an_attempt_in_both_report_json_and_the_journal_is_read_once) {
  RunBetweenRewrites run;
  run.append(run.written.attempts[1], 7000);  // killed after the rewrite's rename, before the journal restarted
  run.append(run.later[0], 8000);
  BOOST_TEST(attempts_of(read_back(run.folder.path())) ==
                 (std::vector<std::string>{"fix-bug #1 passed", "fix-bug #2 failed", "rename #1 error"}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_journal_that_continues_another_report_json_adds_nothing) {
  RunBetweenRewrites run;
  run.append(run.later[0], 7000);
  std::string stale = text_of(run.reports.journal());
  // A resumed run dropped rename #1 and wrote its own report; killed before its journal replaced the old one.
  run.written.duration_ms = 9000;
  auto rewritten = run.reports.write(run.written, Journal::restarted);
  BOOST_REQUIRE(rewritten.has_value());
  BOOST_REQUIRE(write_file_atomically(run.reports.journal(), stale).has_value());
  BOOST_TEST(
      attempts_of(read_back(run.folder.path())) == (std::vector<std::string>{"fix-bug #1 passed", "fix-bug #2 failed"}),
      boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_whole_line_that_does_not_read_is_an_error_naming_the_journal_and_line) {
  RunBetweenRewrites run;
  run.append(run.later[0], 7000);
  BOOST_REQUIRE(append_line(run.reports.journal(), "{\"run_duration_ms\": 1}\n").has_value());
  auto read = read_report_file(run.folder.path() / "report.json");
  BOOST_REQUIRE(!read.has_value());
  BOOST_TEST(read.error().message ==
             run.reports.journal().string() + ":3: expected an object with `attempt` and `run_duration_ms`");
}

BOOST_AUTO_TEST_CASE(the_last_write_of_a_run_removes_the_journal) {
  RunBetweenRewrites run;
  run.append(run.later[0], 7000);
  BOOST_TEST(fs::exists(run.reports.journal()));
  BOOST_TEST(run.reports.journal() == run.folder.path() / "report.journal.jsonl");
  RunReport whole = run.written;
  whole.attempts.push_back(run.later[0]);
  BOOST_REQUIRE(run.reports.write(whole, Journal::removed).has_value());
  BOOST_TEST(!fs::exists(run.reports.journal()));
  BOOST_TEST(attempts_in_report_json(run.folder.path()) == 3u);
  BOOST_TEST(read_back(run.folder.path()).attempts.size() == 3u);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
