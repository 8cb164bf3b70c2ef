#include "exec/process.h"
#include "base/text.h"
#include "support/fixtures.h"
#include "support/process_probes.h"

#include <boost/test/unit_test.hpp>

#include <sys/types.h>
#include <csignal>
#include <string>
#include <thread>

namespace agent_run {
namespace {

using namespace std::chrono_literals;

ProcessResult run_shell_command(const std::string& command, std::chrono::milliseconds timeout = 30s) {
  auto result = run_process(shell_command(command, {}, timeout));
  BOOST_REQUIRE_MESSAGE(result.has_value(), (result.has_value() ? std::string() : result.error().message));
  return *result;
}

/// Runs `command` with a timeout that must fire once the command has printed `ready`: on a machine
/// so loaded that the timeout fired first, the same is tried with a timeout twice as long (a
/// timeout that came before the command set itself up proves nothing).
ProcessResult run_until_timed_out(const std::string& command, const std::string& ready,
                                  std::chrono::milliseconds timeout, std::chrono::milliseconds grace = 2s) {
  for (int tries = 0;; ++tries, timeout *= 2) {
    ProcessSpec spec = shell_command(command, {}, timeout);
    spec.kill_grace = grace;
    auto result = run_process(spec);
    BOOST_REQUIRE_MESSAGE(result.has_value(), (result.has_value() ? std::string() : result.error().message));
    if (result->output.find(ready) != std::string::npos || tries == 6) return *result;
  }
}

/// The pid printed on the first line of `output`.
pid_t first_line_pid(const std::string& output) {
  pid_t pid = static_cast<pid_t>(std::stol(output.substr(0, output.find('\n'))));
  BOOST_REQUIRE_GT(pid, 1);
  return pid;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(process)

BOOST_AUTO_TEST_CASE(exit_code_is_reported) {
  ProcessResult result = run_shell_command("exit 3");
  BOOST_TEST(result.exit_code == 3);
  BOOST_TEST(result.signal == 0);
  BOOST_TEST(!result.timed_out);
  BOOST_TEST(result.output.empty());
}

BOOST_AUTO_TEST_CASE(a_signal_that_ends_the_command_is_reported_instead_of_an_exit_code) {
  ProcessResult result = run_shell_command("kill -KILL $$");
  BOOST_TEST(result.signal == SIGKILL);
  BOOST_TEST(result.exit_code == -1);
}

BOOST_AUTO_TEST_CASE(stdout_and_stderr_are_interleaved_as_written) {
  ProcessResult result = run_shell_command("echo one; echo two >&2; echo three; echo four >&2");
  BOOST_TEST(result.output == "one\ntwo\nthree\nfour\n");
  BOOST_TEST(result.output_bytes == result.output.size());
  BOOST_TEST(result.exit_code == 0);
}

BOOST_AUTO_TEST_CASE(stdin_is_empty) {
  ProcessResult result = run_shell_command("cat; echo end", 5s);
  BOOST_TEST(!result.timed_out);
  BOOST_TEST(result.output == "end\n");
}

BOOST_AUTO_TEST_CASE(timeout_kills_the_whole_process_group) {
  ProcessResult result = run_until_timed_out("sleep 1000 & echo $!; echo ready; wait", "ready", 300ms);
  BOOST_TEST(result.timed_out);
  BOOST_TEST(result.signal == SIGTERM);
  BOOST_TEST(test::is_gone_soon(first_line_pid(result.output)));
}

BOOST_AUTO_TEST_CASE(a_command_ignoring_sigterm_is_killed_after_the_grace) {
  ProcessResult result =
      run_until_timed_out("trap '' TERM; echo ready; while :; do sleep 0.05; done", "ready", 200ms, 400ms);
  BOOST_TEST(result.timed_out);
  BOOST_TEST(result.signal == SIGKILL);   // the loop never ends and ignores SIGTERM: only the SIGKILL ended it
  BOOST_TEST(result.duration_ms >= 600);  // the timeout, then the grace
  BOOST_TEST(result.output == "ready\n");
}

BOOST_AUTO_TEST_CASE(a_background_job_does_not_hold_up_the_result_and_is_killed) {
  ProcessResult result = run_shell_command("sleep 1000 & echo $!; echo started");
  BOOST_TEST(result.exit_code == 0);
  BOOST_TEST(!result.timed_out);  // it did not wait for the job's 1000 s (the timeout is 30 s)
  BOOST_TEST(result.output.ends_with("started\n"));
  BOOST_TEST(test::is_gone_soon(first_line_pid(result.output)));
}

BOOST_AUTO_TEST_CASE(a_flood_of_output_keeps_head_and_tail_and_counts_what_was_left_out) {
  ProcessResult result = run_shell_command("seq 1 800000");
  std::string expected;
  for (int i = 1; i <= 800000; ++i) expected += std::to_string(i) + "\n";
  BOOST_TEST(result.exit_code == 0);
  BOOST_TEST(result.output_bytes == expected.size());
  BOOST_TEST(result.output == cap_head_tail(expected, 32 * 1024, 32 * 1024));
  std::string marker = "[... " + std::to_string(expected.size() - 64 * 1024) + " bytes omitted ...]\n";
  BOOST_TEST(result.output.find(marker) != std::string::npos);
  BOOST_TEST(result.output.starts_with("1\n2\n3\n"));
  BOOST_TEST(result.output.ends_with("799999\n800000\n"));
}

BOOST_AUTO_TEST_CASE(the_cap_cuts_on_utf8_boundaries_like_cap_head_tail) {
  std::string text = "\xC3\xA9\xC3\xA9\xC3\xA9\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC";  // three e-acute, three euro signs
  ProcessSpec spec = shell_command("printf '" + text + "'", {}, 30s);
  spec.output_head_bytes = 3;
  spec.output_tail_bytes = 5;
  auto result = run_process(spec);
  BOOST_REQUIRE(result.has_value());
  BOOST_TEST(result->output == cap_head_tail(text, 3, 5));
  BOOST_TEST(result->output == "\xC3\xA9\n[... 10 bytes omitted ...]\n\xE2\x82\xAC");
  BOOST_TEST(result->output_bytes == text.size());
}

BOOST_AUTO_TEST_CASE(output_that_just_fits_is_kept_whole) {
  ProcessSpec spec = shell_command("printf 12345678", {}, 30s);
  spec.output_head_bytes = 3;
  spec.output_tail_bytes = 5;
  auto result = run_process(spec);
  BOOST_REQUIRE(result.has_value());
  BOOST_TEST(result->output == "12345678");
}

BOOST_AUTO_TEST_CASE(runs_in_the_given_folder) {
  test::TempFolder folder;
  auto result = run_process(shell_command("pwd", folder.path(), 30s));
  BOOST_REQUIRE(result.has_value());
  BOOST_TEST(result->output == folder.path().string() + "\n");
}

BOOST_AUTO_TEST_CASE(the_environment_can_be_replaced) {
  ProcessSpec spec;
  spec.argv = {"/usr/bin/env"};
  spec.environment = std::vector<std::string>{"ONLY=1", "OTHER=two words"};
  auto result = run_process(spec);
  BOOST_REQUIRE(result.has_value());
  BOOST_TEST(result->output == "ONLY=1\nOTHER=two words\n");
}

BOOST_AUTO_TEST_CASE(signals_the_runner_ignores_are_default_in_the_command) {
  auto previous = ::signal(SIGPIPE, SIG_IGN);
  ProcessResult result = run_shell_command("yes | head -n 1");
  ::signal(SIGPIPE, previous);
  BOOST_TEST(result.output == "y\n");
}

BOOST_AUTO_TEST_CASE(a_program_that_does_not_exist_is_an_error) {
  ProcessSpec spec;
  spec.argv = {"agent-run-no-such-program", "--flag"};
  auto result = run_process(spec);
  BOOST_REQUIRE(!result.has_value());
  BOOST_TEST(result.error().message == "cannot run 'agent-run-no-such-program': not found on PATH");
}

BOOST_AUTO_TEST_CASE(a_missing_folder_is_an_error) {
  test::TempFolder folder;
  auto result = run_process(shell_command("true", folder.path() / "gone", 30s));
  BOOST_REQUIRE(!result.has_value());
  BOOST_TEST(result.error().message ==
             "cannot run '/bin/sh' in '" + (folder.path() / "gone").string() + "': no such folder");
}

BOOST_AUTO_TEST_CASE(an_empty_command_is_an_error) {
  auto result = run_process(ProcessSpec{});
  BOOST_REQUIRE(!result.has_value());
  BOOST_TEST(result.error().message == "cannot run an empty command");
}

BOOST_AUTO_TEST_CASE(shell_command_runs_sh_c_in_the_folder_with_the_timeout) {
  ProcessSpec spec = shell_command("echo hi", "/tmp", 5s);
  BOOST_TEST((spec.argv == std::vector<std::string>{"/bin/sh", "-c", "echo hi"}));
  BOOST_TEST(spec.cwd == "/tmp");
  BOOST_TEST(spec.timeout.count() == 5000);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
