#include "base/cancellation.h"
#include "base/files.h"
#include "exec/process.h"
#include "exec/process_table.h"
#include "support/fixtures.h"
#include "support/process_probes.h"
#include "support/waiting.h"

#include <boost/test/unit_test.hpp>

#include <poll.h>

#include <csignal>
#include <thread>

namespace agent_run {
namespace {

using namespace std::chrono_literals;

/// Runs `command` with `cancellation`, cancelling it from another thread once the command has
/// written a line to `ready_file` (it has set itself up), never after a fixed time.
ProcessResult run_and_cancel(const std::string& command, Cancellation& cancellation,
                             const std::filesystem::path& ready_file, std::chrono::milliseconds grace = 2s) {
  ProcessSpec spec = shell_command(command, {}, 120s);
  spec.cancellation = &cancellation;
  spec.kill_grace = grace;
  std::thread canceller([&] {
    test::wait_for_line_in(ready_file);
    cancellation.cancel(SIGTERM);
  });
  auto result = run_process(spec);
  canceller.join();
  BOOST_REQUIRE_MESSAGE(result.has_value(), (result ? std::string() : result.error().message));
  return *result;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cancellation)

BOOST_AUTO_TEST_CASE(a_cancellation_is_seen_by_poll_and_keeps_its_first_signal) {
  Cancellation cancellation;
  pollfd fd{cancellation.wait_fd(), POLLIN, 0};
  BOOST_TEST(::poll(&fd, 1, 0) == 0);
  BOOST_TEST(!cancellation.cancelled());
  cancellation.cancel(SIGINT);
  cancellation.cancel(SIGTERM);
  BOOST_TEST(::poll(&fd, 1, 0) == 1);
  BOOST_TEST(::poll(&fd, 1, 0) == 1);  // stays readable
  BOOST_TEST(cancellation.signal() == SIGINT);
  Cancellation by_test;
  by_test.cancel(0);
  BOOST_TEST(by_test.cancelled());
  BOOST_TEST(by_test.signal() == -1);
}

BOOST_AUTO_TEST_CASE(a_cancelled_command_and_its_group_are_killed_at_once) {
  test::TempFolder folder;
  std::filesystem::path pid_file = folder.path() / "child.pid";
  Cancellation cancellation;
  ProcessResult result = run_and_cancel("sleep 1000 & echo $! > " + test::shell_quote(pid_file.string()) + "; wait",
                                        cancellation, pid_file);
  BOOST_TEST(result.cancelled);
  BOOST_TEST(!result.timed_out);  // ended by the cancellation, long before its two minutes
  BOOST_TEST(result.signal == SIGTERM);
  auto child = read_file(pid_file);
  BOOST_REQUIRE(child.has_value());
  BOOST_TEST(test::is_gone_soon(std::stoi(*child)));
}

BOOST_AUTO_TEST_CASE(a_command_that_ignores_sigterm_gets_sigkill_after_the_grace) {
  test::TempFolder folder;
  std::filesystem::path ready = folder.path() / "ready";
  Cancellation cancellation;
  ProcessResult result = run_and_cancel(
      "trap '' TERM; echo ready > " + test::shell_quote(ready.string()) + "; while :; do sleep 0.05; done",
      cancellation, ready, 300ms);
  BOOST_TEST(result.cancelled);
  BOOST_TEST(!result.timed_out);
  BOOST_TEST(result.signal == SIGKILL);  // the loop never ends and ignores SIGTERM: only the SIGKILL ended it
}

BOOST_AUTO_TEST_CASE(nothing_starts_once_cancelled) {
  test::TempFolder folder;
  Cancellation cancellation;
  cancellation.cancel(SIGTERM);
  ProcessSpec spec = shell_command("touch started", folder.path(), 10s);
  spec.cancellation = &cancellation;
  auto result = run_process(spec);
  BOOST_REQUIRE(result.has_value());
  BOOST_TEST(result->cancelled);
  BOOST_TEST(result->exit_code == -1);
  BOOST_TEST(!std::filesystem::exists(folder.path() / "started"));
}

BOOST_AUTO_TEST_CASE(an_uncancelled_command_runs_as_before) {
  Cancellation cancellation;
  ProcessSpec spec = shell_command("echo fine", {}, 10s);
  spec.cancellation = &cancellation;
  auto result = run_process(spec);
  BOOST_REQUIRE(result.has_value());
  BOOST_TEST(!result->cancelled);
  BOOST_TEST(result->exit_code == 0);
  BOOST_TEST(result->output == "fine\n");
}

BOOST_AUTO_TEST_CASE(a_cancellation_ends_the_background_processes_of_a_table_and_it_starts_nothing_more) {
  Cancellation cancellation;
  ProcessTable table;
  ProcessSpec spec = shell_command("trap '' TERM; echo started; exec sleep 1000", {}, 0ms);
  spec.cancellation = &cancellation;
  spec.kill_grace = 300ms;
  auto started = table.start(spec, "sleeper");
  BOOST_REQUIRE_MESSAGE(started.has_value(), (started ? std::string() : started.error().message));
  BackgroundProcess& process = **started;
  std::string output;
  test::wait_until([&] { return (output += process.read_new(100ms).output).find('\n') != std::string::npos; });
  BOOST_TEST(output == "started\n");
  cancellation.cancel(SIGTERM);
  BackgroundRead last = process.read_new(0ms);
  test::wait_until([&] { return !(last = process.read_new(100ms)).running; });  // the grace, not the end of the sleep
  BOOST_REQUIRE(last.ending.has_value());
  BOOST_TEST(last.ending->cancelled);
  BOOST_TEST(!last.ending->timed_out);
  BOOST_TEST(!last.ending->stopped);
  BOOST_TEST(last.ending->signal == SIGKILL);  // it ignored SIGTERM
  BOOST_TEST(test::is_gone_soon(process.pid()));
  BOOST_TEST(to_string(process.ended_by()) == std::string("attempt_end"));

  auto refused = table.start(spec, "another");
  BOOST_REQUIRE(!refused.has_value());
  BOOST_TEST(refused.error().message == "agent-run is stopping (SIGINT or SIGTERM): nothing new is started");
  ProcessSpec foreground = shell_command("echo never", {}, 10s);
  foreground.cancellation = &cancellation;
  auto not_run = table.run(foreground);
  BOOST_REQUIRE(not_run.has_value());
  BOOST_TEST(not_run->cancelled);
  BOOST_TEST(not_run->pid == 0);
  ProcessTableSummary summary = table.stop_everything();
  BOOST_REQUIRE(summary.background.size() == 1u);
  BOOST_TEST(to_string(summary.background[0].ended_by) == std::string("attempt_end"));
  BOOST_TEST(summary.escaped.empty());
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
