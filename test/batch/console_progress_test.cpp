#include "batch/console_progress.h"

#include "support/fakes.h"

#include <boost/test/unit_test.hpp>

#include <sstream>

namespace agent_run {
namespace {

using namespace std::chrono_literals;

/// A task, a plan of it and results to feed a ConsoleProgress.
struct ProgressFixture {
  Task task;
  AttemptPlan plan;
  test::FakeClock clock;
  std::ostringstream out;

  ProgressFixture() {
    task.id = "rename";
    task.prompt = "p";
    plan = AttemptPlan{&task, nullptr, "script", 2, "attempts/rename/2"};
  }

  AttemptResult result(Outcome outcome) const {
    AttemptResult result;
    result.task_id = "rename";
    result.model = "script";
    result.n = 2;
    result.outcome = outcome;
    result.turns = 3;
    result.usage = Usage::zero();
    result.usage.input_tokens = 1200;
    result.usage.estimated = true;
    result.durations.total_ms = 2500;
    result.patch = PatchStats{2, 5, 1};
    result.patch_path = "attempts/rename/2/patch.diff";
    result.transcript_path = "attempts/rename/2/transcript.jsonl";
    if (outcome == Outcome::failed) {
      result.outcome_type = OutcomeType::check_failed;
      result.message = "check `make test` exited 2";
      result.checks.push_back(CheckRecord{"make test", false, 2, false, 40, "compiling\nFAILED: parser\n"});
    }
    return result;
  }

  AttemptProgress progress(std::string phase, int turn) const {
    AttemptProgress progress;
    progress.phase = std::move(phase);
    progress.turn = turn;
    progress.usage.input_tokens = 400 * turn;
    progress.usage.estimated = true;
    progress.activity = turn > 0 ? "read_file, edit_file" : "";
    return progress;
  }

  void play(ConsoleProgress& console, Outcome outcome) {
    console.attempt_started(plan);
    console.attempt_progress(plan, progress("agent", 1));
    clock.advance(1500ms);
    console.time_passed();
    console.attempt_progress(plan, progress("agent", 2));
    console.attempt_finished(result(outcome));
    RunReport report;
    report.attempts.push_back(result(outcome));
    console.run_finished(report);
  }
};

const char* const k_summary =
    "1 attempt: 0 passed, 1 failed, 0 errors, 0 skipped\n"
    "usage: ~1200 tokens (estimated): 1200 input, 0 output, 0 cache read, 0 cache write; cost $0.0000\n"
    "tool calls: 0, 0 denied\n"
    "reports: out/report.json, out/junit.xml, out/summary.md, out/report.html\n";

}  // namespace

BOOST_AUTO_TEST_SUITE(console_progress)

BOOST_AUTO_TEST_CASE(a_log_gets_a_line_per_finished_attempt_and_the_summary) {
  ProgressFixture fixture;
  ConsoleProgress console(fixture.out, "out", ProgressOptions{ProgressStyle::plain, Verbosity::normal, 80},
                          fixture.clock);
  fixture.play(console, Outcome::failed);
  BOOST_TEST(fixture.out.str() ==
             std::string("FAIL  rename #2  script  3 turns  2.5s  check.failed: check `make test` exited 2\n") +
                 k_summary);
}

BOOST_AUTO_TEST_CASE(verbose_adds_start_turn_and_detail_lines) {
  ProgressFixture fixture;
  ConsoleProgress console(fixture.out, "out", ProgressOptions{ProgressStyle::plain, Verbosity::verbose, 80},
                          fixture.clock);
  fixture.play(console, Outcome::failed);
  BOOST_TEST(fixture.out.str() ==
             std::string("START rename #2  script\n"
                         "  ... rename #2  agent  turn 1  ~400 tokens  $0.0000  0.0s  read_file, edit_file\n"
                         "  ... rename #2  agent  turn 2  ~800 tokens  $0.0000  1.5s  read_file, edit_file\n"
                         "FAIL  rename #2  script  3 turns  2.5s  check.failed: check `make test` exited 2\n"
                         "  failed (check.failed): check `make test` exited 2\n"
                         "  check `make test` exited 2: FAILED: parser\n"
                         "  3 turns, 0 tool calls (0 denied), ~1200 tokens, $0.0000\n"
                         "  patch: 2 files, +5 -1: attempts/rename/2/patch.diff\n"
                         "  transcript: attempts/rename/2/transcript.jsonl\n") +
                 k_summary);
}

BOOST_AUTO_TEST_CASE(github_actions_gets_a_group_per_attempt_and_quiet_only_the_summary) {
  ProgressFixture github;
  ConsoleProgress grouped(github.out, "out", ProgressOptions{ProgressStyle::github, Verbosity::normal, 80},
                          github.clock);
  github.play(grouped, Outcome::failed);
  BOOST_TEST(github.out.str().starts_with(
      "::group::FAIL  rename #2  script  3 turns  2.5s  check.failed: check `make test` exited 2\n"
      "  failed (check.failed): check `make test` exited 2\n"));
  BOOST_TEST(github.out.str().find("  transcript: attempts/rename/2/transcript.jsonl\n::endgroup::\n1 attempt:") !=
             std::string::npos);

  ProgressFixture quiet;
  ConsoleProgress silent(quiet.out, "out", ProgressOptions{ProgressStyle::live, Verbosity::quiet, 80}, quiet.clock);
  quiet.play(silent, Outcome::failed);
  BOOST_TEST(quiet.out.str() == k_summary);
}

BOOST_AUTO_TEST_CASE(a_terminal_gets_status_lines_redrawn_in_place_cut_to_its_width) {
  ProgressFixture fixture;
  ConsoleProgress console(fixture.out, "out", ProgressOptions{ProgressStyle::live, Verbosity::normal, 50},
                          fixture.clock);
  console.attempt_started(fixture.plan);
  BOOST_TEST(fixture.out.str() == "  ... rename #2  starting  0 tokens  $0.0000  0.0\n");  // 49 columns
  fixture.out.str("");
  fixture.clock.advance(2000ms);
  console.attempt_progress(fixture.plan, fixture.progress("agent", 3));
  std::string up_and_clear = "\x1b[1A\x1b[2K";
  BOOST_TEST(fixture.out.str() == up_and_clear + "  ... rename #2  agent  turn 3  ~1200 tokens  $0.\n");
  fixture.out.str("");
  console.attempt_finished(fixture.result(Outcome::passed));
  BOOST_TEST(fixture.out.str() == up_and_clear + "PASS  rename #2  script  3 turns  2.5s\n");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
