#include "batch/batch_fixture.h"

#include "base/files.h"
#include "report/report_reader.h"
#include "support/fakes.h"
#include "support/waiting.h"

#include <boost/test/unit_test.hpp>

#include <sys/wait.h>
#include <csignal>

namespace agent_run {
namespace {

namespace fs = std::filesystem;
using test::BatchFixture;
using test::RecordingObserver;

/// A task whose check passes only when `count` attempts are in their checks at the same time
/// (each waits up to two minutes for the others, and goes on as soon as they are all there).
std::string barrier_task(const fs::path& barrier, int count) {
  // Out of the sandbox: its checks meet in a folder of the machine's /tmp, which a sandbox's own /tmp hides.
  return "prompt: wait for the others\npolicy: ../policy.yaml\nsandbox: off\nchecks:\n  - run: \"touch " +
         barrier.string() + "/$(basename $(dirname $(pwd)))-$$; for i in $(seq 12000); do [ $(ls " + barrier.string() +
         " | wc -l) -ge " + std::to_string(count) +
         " ] && exit 0; sleep 0.01; done; exit 1\"\nlimits: {tool_timeout: 3m}\nscript:\n  - say: Done.\n";
}

std::vector<std::string> outcomes(const RunReport& report) {
  std::vector<std::string> out;
  for (const AttemptResult& attempt : report.attempts) {
    out.push_back(attempt.task_id + " " + to_string(attempt.outcome) + " " + to_string(attempt.outcome_type));
  }
  return out;
}

std::size_t attempts_on_disk(const fs::path& out) {
  auto report = read_report_file(out / "report.json");
  BOOST_REQUIRE_MESSAGE(report.has_value(), (report ? std::string() : report.error().message));
  return report->attempts.size();
}

/// The report folder, counting its whole writes and the attempts appended to its journal.
class CountingFolder final : public ReportFolder {
 public:
  using ReportFolder::ReportFolder;
  Expected<void> write(const RunReport& report, Journal journal) const override {
    ++whole_writes;
    return ReportFolder::write(report, journal);
  }
  Expected<void> append(const AttemptResult& attempt, long long run_duration_ms) const override {
    ++appended;
    return ReportFolder::append(attempt, run_duration_ms);
  }
  mutable int whole_writes = 0;
  mutable int appended = 0;
};

bool is_running(pid_t pid) {
  auto stat = read_file("/proc/" + std::to_string(pid) + "/stat");
  if (!stat) return false;
  std::size_t state = stat->rfind(')') + 2;
  return state < stat->size() && (*stat)[state] != 'Z';
}

}  // namespace

BOOST_AUTO_TEST_SUITE(batch_run)

BOOST_AUTO_TEST_CASE(parallel_attempts_run_at_once_and_the_report_keeps_the_plan_order) {
  test::TempFolder barrier;
  std::map<std::string, std::string> files;
  for (const char* id : {"d", "b", "c", "a"}) files[std::string(id) + ".yaml"] = barrier_task(barrier.path(), 4);
  BatchFixture fixture(files);
  RecordingObserver observer;
  std::size_t finished = 0;
  observer.on_finished = [&](const AttemptResult&) {
    BOOST_TEST(attempts_on_disk(fixture.out) == ++finished);  // rewritten before the observer hears of it
  };
  auto report = run_batch(fixture.plans(), fixture.settings, RunReport{}, observer, 4);
  BOOST_REQUIRE(report.has_value());
  BOOST_TEST(outcomes(*report) ==
                 (std::vector<std::string>{"a passed passed", "b passed passed", "c passed passed", "d passed passed"}),
             boost::test_tools::per_element());
  BOOST_TEST(!report->interrupted);
  for (const test::HeardEvent& event : observer.events) BOOST_TEST(event.thread == std::this_thread::get_id());
  BOOST_TEST(observer.events.back().what == "run 4");
  BOOST_TEST(fs::is_empty(fixture.scratch));
  BOOST_TEST(test::run_shell("git worktree list | wc -l", fixture.repo).output == "1\n");
}

BOOST_AUTO_TEST_CASE(an_attempt_that_throws_is_an_error_and_the_others_carry_on) {
  BatchFixture fixture({{"boom.yaml", test::sleeping_task("0")},
                        {"fine.yaml", test::sleeping_task("0")},
                        {"later.yaml", test::sleeping_task("0")}});
  auto scripted = fixture.settings.make_model;
  fixture.settings.make_model = [&](const Task& task, const std::string& model, int n,
                                    std::shared_ptr<WireTransport> wire) -> Expected<std::unique_ptr<ModelClient>> {
    if (task.id == "boom") throw std::runtime_error("model client exploded");
    return scripted(task, model, n, std::move(wire));
  };
  RecordingObserver observer;
  auto report = run_batch(fixture.plans(), fixture.settings, RunReport{}, observer, 2);
  BOOST_REQUIRE(report.has_value());
  BOOST_TEST(outcomes(*report) ==
                 (std::vector<std::string>{"boom error runner.crashed", "fine passed passed", "later passed passed"}),
             boost::test_tools::per_element());
  BOOST_TEST(report->attempts[0].message == "agent-run failed while running this attempt: model client exploded");
}

BOOST_AUTO_TEST_CASE(a_cancellation_kills_the_running_command_and_starts_nothing_new) {
  test::TempFolder marks;
  fs::path pid_file = marks.path() / "pid";
  fs::path script =
      marks.write("slow.sh", "echo $$ > " + pid_file.string() + "\nexec sleep 1000\n");  // no `$` in a bash call
  BatchFixture fixture({{"a-slow.yaml",
                         // Out of the sandbox, so that the runner sees the command's pid (sandbox_test has
                         // the sandboxed timeout and escape cases).
                         "prompt: p\npolicy: ../policy.yaml\nsandbox: off\nscript:\n  - call: {tool: bash, input: "
                         "{command: \"sh " +
                             script.string() + "\"}}\n  - say: x\n"},
                        {"b-next.yaml", test::sleeping_task("0")},
                        {"c-last.yaml", test::sleeping_task("0")}});
  RecordingObserver observer;
  std::thread canceller;
  observer.on_progress = [&](const AttemptPlan&, const AttemptProgress& progress) {
    if (progress.turn != 1 || canceller.joinable()) return;
    canceller = std::thread([&] {
      test::wait_for_line_in(pid_file);  // the command runs
      fixture.cancellation.cancel(SIGTERM);
    });
  };
  auto report = run_batch(fixture.plans(), fixture.settings, RunReport{}, observer, 1);  // its sleep: 1000 s
  canceller.join();
  BOOST_REQUIRE(report.has_value());
  BOOST_TEST(report->interrupted);
  BOOST_TEST(outcomes(*report) == std::vector<std::string>{"a-slow error interrupted"},
             boost::test_tools::per_element());
  BOOST_TEST(report->attempts[0].message ==
             "interrupted by SIGTERM during the agent loop; agent-run --resume runs it again");
  auto pid = read_file(pid_file);
  BOOST_REQUIRE(pid.has_value());
  BOOST_TEST(!is_running(std::stoi(*pid)));
  BOOST_TEST(fs::is_empty(fixture.scratch));
  BOOST_TEST(attempts_on_disk(fixture.out) == 1u);
}

// The setup waits for the daemon's exec of sleep, not only its pid file: under load the escape was
// once seen while it was still `sh -c ...` (ci/stress-tests.sh).
BOOST_AUTO_TEST_CASE(what_setup_leaves_running_serves_the_checks_and_is_killed_when_the_attempt_ends) {
  test::TempFolder marks;
  std::string pid_file = (marks.path() / "daemon.pid").string();
  // sandbox: off: sandboxed checks have processes and a network of their own, where setup's daemon
  // is neither seen nor reached.
  BatchFixture fixture(
      {{"t.yaml", "prompt: p\npolicy: ../policy.yaml\nsandbox: off\nsetup:\n  - \"setsid -f sh -c 'echo $$ > " +
                      pid_file + "; exec sleep 60' </dev/null >/dev/null 2>&1; while [ ! -s " + pid_file +
                      " ] || ! grep -qx sleep /proc/$(cat " + pid_file +
                      ")/comm 2>/dev/null; do sleep 0.01; done\"\nchecks:\n  - run: \"kill -0 $(cat " + pid_file +
                      ")\"\nscript:\n  - say: Done.\n"}});
  AttemptResult result = run_attempt(fixture.plans().front(), fixture.settings);
  BOOST_TEST((result.outcome_type == OutcomeType::passed), result.message);  // the daemon was alive during the checks
  auto pid = read_file(pid_file);
  BOOST_REQUIRE(pid.has_value());
  BOOST_TEST(!is_running(std::stoi(*pid)));
  BOOST_REQUIRE(result.escaped_processes.size() == 1u);
  BOOST_TEST(result.escaped_processes[0].pid == std::stoi(*pid));
  BOOST_TEST(result.escaped_processes[0].command == "sleep 60");
}

BOOST_AUTO_TEST_CASE(attempts_the_report_already_holds_are_not_run_again) {
  BatchFixture fixture({{"a.yaml", test::sleeping_task("0")},
                        {"b.yaml", test::sleeping_task("0")},
                        {"c.yaml", test::sleeping_task("0")}});
  std::vector<AttemptPlan> plans = fixture.plans();
  RunReport previous;
  previous.attempts.push_back(run_attempt(plans[1], fixture.settings));
  previous.attempts.back().message = "from before";
  RecordingObserver observer;
  auto report = run_batch(plans, fixture.settings, previous, observer, 2);
  BOOST_REQUIRE(report.has_value());
  std::vector<std::string> started;
  for (const test::HeardEvent& event : observer.events) {
    if (event.what.starts_with("started")) started.push_back(event.what);
  }
  std::sort(started.begin(), started.end());
  BOOST_TEST(started == (std::vector<std::string>{"started a #1", "started c #1"}), boost::test_tools::per_element());
  BOOST_TEST(outcomes(*report) == (std::vector<std::string>{"a passed passed", "b passed passed", "c passed passed"}),
             boost::test_tools::per_element());
  BOOST_TEST(report->attempts[1].message == "from before");
}

BOOST_AUTO_TEST_CASE(in_place_attempts_on_one_repository_run_one_at_a_time) {
  std::string exclusive =
      "prompt: p\npolicy: ../policy.yaml\nworkspace: {repo: .., isolation: in-place}\nchecks:\n"
      "  - run: \"mkdir in-use && sleep 0.5 && rmdir in-use\"\nscript:\n  - say: Done.\n";
  BatchFixture fixture({{"one.yaml", exclusive}, {"two.yaml", exclusive}});
  RecordingObserver observer;
  auto report = run_batch(fixture.plans(), fixture.settings, RunReport{}, observer, 2);
  BOOST_REQUIRE(report.has_value());
  BOOST_TEST(outcomes(*report) == (std::vector<std::string>{"one passed passed", "two passed passed"}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(progress_reports_the_phases_and_turns_of_an_attempt) {
  BatchFixture fixture({{"t.yaml", test::sleeping_task("0")}});
  RecordingObserver observer;
  auto report = run_batch(fixture.plans(), fixture.settings, RunReport{}, observer, 1);
  BOOST_REQUIRE(report.has_value());
  std::vector<std::string> heard;
  for (const test::HeardEvent& event : observer.events) heard.push_back(event.what);
  BOOST_TEST(
      heard == (std::vector<std::string>{"started t #1", "progress t #1 workspace 0", "progress t #1 setup 0",
                                         "progress t #1 agent 0", "progress t #1 agent 1", "progress t #1 agent 2",
                                         "progress t #1 checks 2", "progress t #1 patch 2", "progress t #1 commit 2",
                                         "progress t #1 cleanup 2", "finished t #1 passed", "run 1"}),
      boost::test_tools::per_element());
}

// The attempt's clock moves only inside its phases here, once each, by an amount of the phase's
// own: right after the phase's first reading (its start), so that it lies between the start and
// the end the phase measures. The workspace is measured from the attempt's start, read before its
// phase is announced: its time passes at the announcement. Each duration is then exactly the time
// spent in what it measures, and one taken from the wrong readings (or not at all) differs.
namespace {

class PhaseClock final : public Clock {
 public:
  SteadyTime now() const override {
    const SteadyTime read = m_now;
    m_now += m_pending;  // after the reading: the phase's next reading sees it
    m_pending = {};
    return read;
  }
  WallTime wall_now() const override { return WallTime{} + (m_now - SteadyTime{}); }
  /// The phase now starting will take `spent`: after the clock's next reading, or at once (`at_once`).
  void spend(std::chrono::milliseconds spent, bool at_once) {
    if (at_once) {
      m_now += spent;
    } else {
      m_pending = spent;
    }
  }

 private:
  mutable SteadyTime m_now{std::chrono::hours(1)};
  mutable std::chrono::milliseconds m_pending{};
};

}  // namespace

BOOST_AUTO_TEST_CASE(durations_are_measured_phase_by_phase_on_the_attempts_clock) {
  BatchFixture fixture(std::map<std::string, std::string>{
      {"t.yaml",
       "prompt: p\npolicy: ../policy.yaml\nsetup:\n  - \"true\"\nchecks:\n  - run: \"true\"\n"
       "script:\n  - say: Done.\n"}});
  PhaseClock clock;
  fixture.settings.clock = &clock;
  const std::map<std::string, std::chrono::milliseconds> spent = {{"workspace", std::chrono::milliseconds(1200)},
                                                                  {"setup", std::chrono::milliseconds(30)},
                                                                  {"checks", std::chrono::milliseconds(50)},
                                                                  {"cleanup", std::chrono::milliseconds(700)}};
  std::string last_phase;
  ProgressSink sink = [&](const AttemptProgress& progress) {
    if (progress.phase != last_phase && spent.count(progress.phase)) {
      clock.spend(spent.at(progress.phase), progress.phase == "workspace");
    }
    last_phase = progress.phase;
  };
  AttemptResult result = run_attempt(fixture.plans().front(), fixture.settings, sink);
  BOOST_TEST((result.outcome_type == OutcomeType::passed), result.message);
  BOOST_TEST(result.durations.workspace_ms == 1200);  // from the attempt's start to its workspace
  BOOST_TEST(result.durations.setup_ms == 30);
  BOOST_TEST(result.durations.checks_ms == 50);
  BOOST_TEST(result.durations.cleanup_ms == 700);
  BOOST_TEST(result.durations.total_ms == 1200 + 30 + 50 + 700);
}

// 64 attempts: the reports are written whole a logarithmic number of times (at the start, after
// attempts 1, 2, 4, ..., 64, and at the end), each attempt once to the journal, and the report read
// back holds them all.
BOOST_AUTO_TEST_CASE(a_run_of_64_attempts_writes_its_reports_whole_a_logarithmic_number_of_times) {
  BatchFixture fixture(
      std::map<std::string, std::string>{{"t.yaml", "prompt: p\npolicy: ../policy.yaml\nscript:\n  - say: Done.\n"}});
  CountingFolder counting(fixture.out);
  fixture.settings.reports = &counting;
  PlanOptions options;
  options.repeat = 64;
  RecordingObserver observer;
  auto report = run_batch(fixture.plans(options), fixture.settings, RunReport{}, observer, 2);
  BOOST_REQUIRE(report.has_value());
  BOOST_TEST(report->attempts.size() == 64u);
  BOOST_TEST(counting.whole_writes <= 2 * 6 + 2);  // 2 log2(64) + 2
  BOOST_TEST(counting.appended == 64);
  BOOST_TEST(attempts_on_disk(fixture.out) == 64u);
  BOOST_TEST(!fs::exists(counting.journal()));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
