#include "exec/process_table.h"
#include "exec/process_group.h"
#include "exec/subreaper.h"
#include "support/fixtures.h"
#include "support/process_probes.h"
#include "support/waiting.h"

#include <boost/test/unit_test.hpp>

#include <unistd.h>

#include <csignal>
#include <string>
#include <thread>

// The whole exec_tests binary runs as a child subreaper, as agent-run does.
using SubreaperFixture = agent_run::test::SubreaperFixture;
BOOST_GLOBAL_FIXTURE(SubreaperFixture);

namespace agent_run {
namespace {

using namespace std::chrono_literals;
using test::is_alive;
using test::is_gone_soon;

ProcessResult run_in(ProcessTable& table, const std::string& command, std::chrono::milliseconds timeout = 30s) {
  auto result = table.run(shell_command(command, {}, timeout));
  BOOST_REQUIRE_MESSAGE(result.has_value(), (result ? std::string() : result.error().message));
  return *result;
}

/// Runs `command` in `table` with a timeout that must fire after the command printed `ready`; on a
/// machine so loaded that it fired first, tries again with twice the timeout.
ProcessResult run_until_timed_out(ProcessTable& table, const std::string& command, std::chrono::milliseconds timeout) {
  for (int tries = 0;; ++tries, timeout *= 2) {
    ProcessResult result = run_in(table, command, timeout);
    if (result.output.ends_with("ready\n") || tries == 6) return result;
  }
}

// Escapes of every kind: a setsid daemon, a setsid'ed shell with its own child, a classic double
// fork with setsid (python), and a process that moved to a group of its own without a new session.
// The command waits for the event each escape means (setsid's sleep has exec'd; the others wrote
// their pid after escaping), never for a fixed time, then prints the pids and returns at once.
const char* k_escapes =
    "d=$(mktemp -d)\n"
    "setsid sleep 1000 >/dev/null 2>&1 & p=$!\n"
    "until [ \"$(cat /proc/$p/comm 2>/dev/null)\" = sleep ]; do sleep 0.01; done; echo $p > \"$d/1\"\n"
    "setsid sh -c 'sleep 1000 & echo $! > \"$1\"; exec sleep 1000' sh \"$d/2\" </dev/null >/dev/null 2>&1 &\n"
    "python3 -c 'import os,sys,time\n"
    "if os.fork(): os._exit(0)\n"
    "os.setsid()\n"
    "if os.fork(): os._exit(0)\n"
    "open(sys.argv[1], \"w\").write(str(os.getpid()) + \"\\n\")\n"
    "time.sleep(1000)' \"$d/3\" </dev/null >/dev/null 2>&1\n"
    "python3 -c 'import os,sys,time; os.setpgid(0, 0); open(sys.argv[1], \"w\").write(str(os.getpid()) + \"\\n\"); "
    "time.sleep(1000)' \"$d/4\" </dev/null >/dev/null 2>&1 &\n"
    "for i in 1 2 3 4; do until [ -s \"$d/$i\" ]; do sleep 0.01; done; done\n"
    "cat \"$d/1\" \"$d/2\" \"$d/3\" \"$d/4\"; rm -r \"$d\"; echo started\n";

// One setsid escape: the command returns once setsid's sleep has exec'd (it is in its own session by then).
const char* k_one_escape =
    "setsid sleep 1000 >/dev/null 2>&1 & p=$!; "
    "until [ \"$(cat /proc/$p/comm 2>/dev/null)\" = sleep ]; do sleep 0.01; done; echo $p";

/// What the test process's zombie children were, for a failure message.
std::string describe_zombies() {
  std::string text;
  for (pid_t pid : test::zombie_children()) {
    auto info = read_process_info(pid);
    text += std::to_string(pid) + " (group " + std::to_string(info ? info->group : 0) + ", session " +
            std::to_string(info ? info->session : 0) + ") ";
  }
  return text;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(process_table)

BOOST_AUTO_TEST_CASE(the_runner_is_a_child_subreaper_in_these_tests) { BOOST_TEST(is_child_subreaper()); }

BOOST_AUTO_TEST_CASE(a_command_that_times_out_leaves_no_process_of_its_group_alive) {
  test::TempFolder folder;
  std::string inner = test::shell_quote((folder.path() / "inner").string());
  ProcessTable table;
  ProcessResult result = run_until_timed_out(table,
                                             "rm -f " + inner + "; sleep 1000 & echo $!; (sleep 1000 & echo $! > " +
                                                 inner + "; wait) & until [ -s " + inner +
                                                 " ]; do sleep 0.01; done; cat " + inner + "; echo ready; sleep 1000",
                                             300ms);
  BOOST_TEST(result.timed_out);
  std::vector<pid_t> printed = test::pids_in(result.output);
  BOOST_REQUIRE_EQUAL(printed.size(), 2u);
  for (pid_t pid : printed) BOOST_TEST(!is_alive(pid));
  BOOST_TEST(test::members_of_group(result.pid).empty());  // neither alive nor left as a zombie
  BOOST_TEST(test::zombie_children().empty(), "zombies: " << describe_zombies());
}

BOOST_AUTO_TEST_CASE(a_background_job_with_ampersand_returns_at_once_and_is_killed_and_reaped) {
  ProcessTable table;
  ProcessResult result = run_in(table, "sleep 1000 & echo $!; echo started");
  BOOST_TEST(result.exit_code == 0);
  BOOST_TEST(!result.timed_out);  // it did not wait for the job: the 30 s timeout would have cut it
  BOOST_TEST(result.output.ends_with("started\n"));
  BOOST_TEST(!is_alive(test::pids_in(result.output).at(0)));
  BOOST_TEST(test::members_of_group(result.pid).empty());
  BOOST_TEST(test::zombie_children().empty(), "zombies: " << describe_zombies());
}

BOOST_AUTO_TEST_CASE(setsid_and_double_fork_escapes_live_on_until_the_attempt_ends_then_are_killed) {
  ProcessTable table;
  ProcessResult result = run_in(table, k_escapes);
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.output.ends_with("started\n"));
  std::vector<pid_t> escaped = test::pids_in(result.output);
  BOOST_REQUIRE_EQUAL(escaped.size(), 4u);
  for (pid_t pid : escaped) BOOST_TEST(is_alive(pid), "escape " << pid << " is alive after its command");
  bool reparented_to_runner = false;
  for (pid_t pid : escaped) reparented_to_runner |= read_process_info(pid)->parent == ::getpid();
  BOOST_TEST(reparented_to_runner);  // orphans come to the subreaper, not to PID 1

  ProcessTableSummary summary = table.stop_everything();
  for (pid_t pid : escaped) BOOST_TEST(is_gone_soon(pid), "escape " << pid << " was killed");
  BOOST_TEST(summary.escaped.size() >= escaped.size());
  BOOST_TEST(processes_marked(table.marker()).empty());
  BOOST_TEST(test::zombie_children().empty(), "zombies: " << describe_zombies());
  bool named = false;
  for (const EscapedProcess& process : summary.escaped) named |= process.command == "sleep 1000";
  BOOST_TEST(named);
}

BOOST_AUTO_TEST_CASE(ending_one_attempt_leaves_the_escapes_of_another_alone) {
  ProcessTable first;
  ProcessTable second;
  BOOST_TEST(first.marker() != second.marker());
  pid_t mine = test::pids_in(run_in(first, k_one_escape).output).at(0);
  pid_t theirs = test::pids_in(run_in(second, k_one_escape).output).at(0);
  second.stop_everything();
  BOOST_TEST(!is_alive(theirs));
  BOOST_TEST(is_alive(mine));
  first.stop_everything();
  BOOST_TEST(is_gone_soon(mine));
}

BOOST_AUTO_TEST_CASE(destroying_the_table_kills_everything_whatever_happened) {
  pid_t escaped = 0;
  pid_t background = 0;
  {
    ProcessTable table;
    escaped = test::pids_in(run_in(table, k_one_escape).output).at(0);
    auto process = table.start(shell_command("sleep 1000", {}, 0ms), "sleep 1000");
    BOOST_REQUIRE(process.has_value());
    background = (*process)->pid();
    BOOST_TEST(is_alive(escaped));
    BOOST_TEST(is_alive(background));
  }
  BOOST_TEST(!is_alive(escaped));
  BOOST_TEST(!is_alive(background));
  BOOST_TEST(test::zombie_children().empty(), "zombies: " << describe_zombies());
}

// Found under load (ci/stress-tests.sh): an escape that dies before the runner looks for escapes is
// a zombie whose marker can no longer be read, re-parented to the runner, which nobody waited for.
BOOST_AUTO_TEST_CASE(an_escape_that_died_before_its_command_ended_is_reaped_all_the_same) {
  ProcessTable table;
  // The escape leaves the group and ends at once; its parent, which never waits, exits once the
  // escape is a zombie (python: a shell would reap it), so the zombie comes to the runner.
  ProcessResult result = run_in(table,
                                "python3 -c 'import os, time\n"
                                "pid = os.fork()\n"
                                "if pid == 0:\n    os.setsid(); os._exit(0)\n"
                                "while open(\"/proc/%d/stat\" % pid).read().rsplit(\")\", 1)[1].split()[0] != \"Z\":\n"
                                "    time.sleep(0.01)\n"
                                "print(pid)'");
  pid_t escaped = test::pids_in(result.output).at(0);
  BOOST_TEST(!read_process_info(escaped).has_value(), "zombies: " << describe_zombies());
  BOOST_TEST(test::zombie_children().empty(), "zombies: " << describe_zombies());
}

BOOST_AUTO_TEST_CASE(no_zombies_and_no_leaked_descriptors_after_200_commands) {
  std::size_t descriptors_before = test::open_descriptor_count();
  {
    ProcessTable table;
    for (int i = 0; i < 200; ++i) {
      std::string command;
      switch (i % 5) {
        case 0: command = "true"; break;
        case 1: command = "echo " + std::to_string(i) + "; echo err >&2"; break;
        case 2: command = "sleep 0.01 & echo started"; break;            // group leftover, killed at exit
        case 3: command = "(sleep 0.01 &); exit 3"; break;               // orphaned in the group
        case 4: command = "setsid sleep 0.02 >/dev/null 2>&1 &"; break;  // escapes, dies by itself
      }
      ProcessResult result = run_in(table, command);
      BOOST_REQUIRE(!result.timed_out);
      BOOST_REQUIRE(result.exit_code == (i % 5 == 3 ? 3 : 0));
    }
    table.stop_everything();
    BOOST_TEST(processes_marked(table.marker()).empty());
  }
  BOOST_TEST(test::zombie_children().empty(), "zombies: " << describe_zombies());
  BOOST_TEST(test::open_descriptor_count() == descriptors_before);
}

BOOST_AUTO_TEST_CASE(a_remembered_pid_is_reaped_only_while_it_names_the_same_process) {
  pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  test::wait_until([&] { return read_process_info(child)->state == 'Z'; });
  auto info = read_process_info(child);
  BOOST_REQUIRE(info.has_value());
  BOOST_REQUIRE(info->state == 'Z');
  BOOST_TEST(info->start_time > 0u);
  ProcessIdentity recycled{child, info->start_time + 1};  // the same pid, another process
  BOOST_TEST((reap_zombies_of({recycled}, {}).empty()));
  BOOST_TEST(read_process_info(child).has_value());  // left alone
  BOOST_TEST((reap_zombies_of({ProcessIdentity{child, info->start_time}}, {}).empty()));
  BOOST_TEST(!read_process_info(child).has_value());  // reaped
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
