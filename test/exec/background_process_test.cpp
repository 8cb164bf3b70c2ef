#include "exec/process_group.h"
#include "exec/process_table.h"
#include "support/fixtures.h"
#include "support/process_probes.h"
#include "support/waiting.h"

#include <boost/test/unit_test.hpp>

#include <csignal>
#include <string>
#include <thread>

namespace agent_run {
namespace {

using namespace std::chrono_literals;
using test::is_alive;

BackgroundProcess& start_in(ProcessTable& table, const std::string& command) {
  auto process = table.start(shell_command(command, {}, 0ms), command);
  BOOST_REQUIRE_MESSAGE(process.has_value(), (process ? std::string() : process.error().message));
  return **process;
}

/// Reads until `text` has appeared in the output, the process has ended or `patience` has passed;
/// returns all it read.
std::string read_until(BackgroundProcess& process, const std::string& text,
                       std::chrono::milliseconds patience = test::k_patience) {
  std::string all;
  auto give_up = std::chrono::steady_clock::now() + patience;
  while (all.find(text) == std::string::npos && std::chrono::steady_clock::now() < give_up) {
    BackgroundRead read = process.read_new(200ms);
    all += read.output;
    if (!read.running) break;
  }
  return all;
}

/// The shell lines that wait until the test has created `folder`/`name`.
std::string await_go(const test::TempFolder& folder, const std::string& name) {
  return "until [ -e " + test::shell_quote((folder.path() / name).string()) + " ]; do sleep 0.01; done; ";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(background_process)

// The process prints each line only once the test has read the one before (a go file), so no read
// can see two lines, however late the test thread runs.
BOOST_AUTO_TEST_CASE(starting_returns_at_once_and_each_read_returns_only_the_new_output) {
  test::TempFolder go;
  ProcessTable table;
  BackgroundProcess& process = start_in(
      table, "echo one; " + await_go(go, "two") + "echo two; " + await_go(go, "three") + "echo three; sleep 1000");
  BOOST_TEST(process.handle() == "bg1");
  BOOST_TEST(read_until(process, "one") == "one\n");
  go.write("two", "");
  BOOST_TEST(read_until(process, "two") == "two\n");
  go.write("three", "");
  BOOST_TEST(read_until(process, "three") == "three\n");
  BackgroundRead nothing = process.read_new(0ms);
  BOOST_TEST(nothing.output.empty());
  BOOST_TEST(nothing.running);
  BOOST_TEST(!nothing.ending.has_value());
  BOOST_TEST(process.output_bytes() == 14u);
}

BOOST_AUTO_TEST_CASE(a_process_that_ends_reports_its_exit_status_and_its_leftovers_are_killed) {
  ProcessTable table;
  BackgroundProcess& process = start_in(table, "sleep 1000 & echo $!; echo done; exit 4");
  std::string output = read_until(process, "done");
  BackgroundRead last = process.read_new(0ms);
  test::wait_until([&] { return !(last = process.read_new(100ms)).running; });
  BOOST_TEST(!last.running);
  BOOST_REQUIRE(last.ending.has_value());
  BOOST_TEST(last.ending->exit_code == 4);
  BOOST_TEST(test::is_gone_soon(test::pids_in(output).at(0)));
  BOOST_TEST(std::string(to_string(process.ended_by())) == to_string(EndedBy::itself));
}

BOOST_AUTO_TEST_CASE(kill_stops_the_group_and_what_escaped_from_it) {
  ProcessTable table;
  // "ready" comes once setsid's sleep has exec'd: it has left the group by then.
  BackgroundProcess& process = start_in(table,
                                        "sleep 1000 & echo $!; setsid sleep 1000 >/dev/null 2>&1 & p=$!; echo $p; "
                                        "until [ \"$(cat /proc/$p/comm 2>/dev/null)\" = sleep ]; do sleep 0.01; done; "
                                        "echo ready; wait");
  std::vector<pid_t> children = test::pids_in(read_until(process, "ready"));
  BOOST_REQUIRE_EQUAL(children.size(), 2u);
  for (pid_t pid : children) BOOST_TEST(is_alive(pid));
  BackgroundRead last = table.kill(process);
  BOOST_TEST(!last.running);
  BOOST_REQUIRE(last.ending.has_value());
  BOOST_TEST(last.ending->stopped);
  BOOST_TEST(last.ending->signal == SIGTERM);
  BOOST_TEST(std::string(to_string(process.ended_by())) == to_string(EndedBy::process_kill));
  for (pid_t pid : children) BOOST_TEST(test::is_gone_soon(pid));
  BOOST_TEST(test::members_of_group(process.pid()).empty());
  BOOST_TEST(test::zombie_children().empty());
}

BOOST_AUTO_TEST_CASE(a_process_ignoring_sigterm_is_killed_after_the_grace) {
  ProcessTable table;
  BackgroundProcess& process = start_in(table, "trap '' TERM; echo ready; while :; do sleep 0.05; done");
  BOOST_TEST(read_until(process, "ready") == "ready\n");
  auto started = std::chrono::steady_clock::now();
  BackgroundRead last = table.kill(process);
  auto took = std::chrono::steady_clock::now() - started;
  BOOST_REQUIRE(last.ending.has_value());
  BOOST_TEST(last.ending->signal == SIGKILL);  // the loop never ends by itself: only the SIGKILL ended it
  BOOST_TEST((took >= 1900ms));                // after the two-second grace, not before
}

BOOST_AUTO_TEST_CASE(a_flood_of_unread_output_never_blocks_it_and_is_capped_head_and_tail) {
  ProcessTable table;
  BackgroundProcess& process = start_in(table, "seq 1 1000000; echo finished");
  BackgroundRead read = process.read_new(0ms);
  test::wait_until([&] { return process.ending().has_value(); });
  BOOST_REQUIRE(process.ending().has_value());  // it ran to the end although nobody read its output
  // The first read may already hold up to one capped read's worth (it raced the flood's start):
  // each read is capped on its own.
  std::string later = process.read_new(0ms).output;
  std::string rest = read.output + later;
  BOOST_TEST(rest.find("bytes omitted") != std::string::npos);
  BOOST_TEST(rest.ends_with("999999\n1000000\nfinished\n"));
  BOOST_TEST(read.output.size() < 40u * 1024);
  BOOST_TEST(later.size() < 40u * 1024);
  BOOST_TEST(process.output_bytes() == 6888896u + 9u);  // seq 1 1000000 prints 6888896 bytes
}

BOOST_AUTO_TEST_CASE(no_more_than_the_cap_run_at_once) {
  ProcessTable table;
  for (std::size_t i = 0; i < ProcessTable::k_max_running; ++i) start_in(table, "sleep 1000");
  auto refused = table.start(shell_command("sleep 1000", {}, 0ms), "sleep 1000");
  BOOST_REQUIRE(!refused.has_value());
  BOOST_TEST(refused.error().message == "8 background processes are already running; stop one with process_kill first");
  table.kill(*table.find("bg1"));
  BOOST_TEST(table.start(shell_command("true", {}, 0ms), "true").has_value());
  BOOST_TEST(table.find("bg9") != nullptr);
}

BOOST_AUTO_TEST_CASE(the_attempt_end_stops_every_background_process_and_reports_it) {
  ProcessTable table;
  BackgroundProcess& server = start_in(table, "echo listening; sleep 1000");
  BackgroundProcess& quick = start_in(table, "echo quick");
  read_until(server, "listening");
  read_until(quick, "never");  // runs to its end
  ProcessTableSummary summary = table.stop_everything();
  BOOST_REQUIRE_EQUAL(summary.background.size(), 2u);
  BOOST_TEST(summary.background[0].handle == "bg1");
  BOOST_TEST(summary.background[0].command == "echo listening; sleep 1000");
  BOOST_TEST(std::string(to_string(summary.background[0].ended_by)) == to_string(EndedBy::attempt_end));
  BOOST_TEST(summary.background[0].output_bytes == 10u);
  BOOST_TEST(std::string(to_string(summary.background[1].ended_by)) == to_string(EndedBy::itself));
  BOOST_TEST(summary.background[1].ending->exit_code == 0);
  BOOST_TEST(!is_alive(server.pid()));
  BOOST_TEST(test::zombie_children().empty());
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
