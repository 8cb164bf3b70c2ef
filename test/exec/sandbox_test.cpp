#include "exec/sandbox.h"
#include "base/text.h"
#include "exec/process_group.h"
#include "exec/process_table.h"
#include "support/fixtures.h"
#include "support/loopback_listener.h"
#include "support/process_probes.h"

#include <boost/test/unit_test.hpp>

#include <unistd.h>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace agent_run {
namespace {

using namespace std::chrono_literals;

/// Runs the sandbox tests only where bubblewrap works; elsewhere Boost.Test skips them (and
/// sandbox_availability/bubblewrap_works_on_this_machine fails with the reason).
boost::test_tools::assertion_result sandbox_usable(boost::unit_test::test_unit_id) {
  auto works = check_sandbox_works(SandboxSpec{});
  boost::test_tools::assertion_result usable(works.has_value());
  if (!works) usable.message() << "sandbox tests not run: " << works.error().message;
  return usable;
}

// Set on a machine known to forbid the namespaces bubblewrap needs, to skip rather than fail there.
constexpr const char* k_skip_variable = "AGENT_RUN_SKIP_SANDBOX_TESTS";

/// A command in `workspace`, sandboxed or not, run through a process table.
ProcessResult run_command(ProcessTable& table, const std::string& command, const std::filesystem::path& workspace,
                          std::optional<SandboxSpec> sandbox, std::chrono::milliseconds timeout = 30s) {
  ProcessSpec spec = shell_command(command, workspace, timeout);
  if (sandbox) spec = sandboxed(spec, *sandbox, workspace);
  auto result = table.run(spec);
  BOOST_REQUIRE_MESSAGE(result.has_value(), (result ? std::string() : result.error().message));
  return *result;
}

std::string connect_command(int port) {
  return "python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", " + std::to_string(port) +
         "), timeout=3); print(\"connected\")'";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sandbox, *boost::unit_test::precondition(sandbox_usable))

BOOST_AUTO_TEST_CASE(the_network_is_cut) {
  test::TempFolder workspace;
  test::LoopbackListener listener;
  ProcessTable table;
  ProcessResult outside = run_command(table, connect_command(listener.port()), workspace.path(), std::nullopt);
  BOOST_TEST(outside.output == "connected\n");  // the same command reaches the listener unsandboxed
  BOOST_TEST(listener.connections() == 1);
  ProcessResult inside = run_command(table, connect_command(listener.port()), workspace.path(), SandboxSpec{});
  BOOST_TEST_INFO(inside.output);
  BOOST_TEST(inside.exit_code != 0);
  BOOST_TEST(inside.output.find("Connection refused") != std::string::npos);
  BOOST_TEST(listener.connections() == 1);
  ProcessResult interfaces =
      run_command(table, "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '", workspace.path(), SandboxSpec{});
  BOOST_TEST(interfaces.output == "lo\n");
}

BOOST_AUTO_TEST_CASE(the_network_can_be_left_on) {
  test::TempFolder workspace;
  test::LoopbackListener listener;
  ProcessTable table;
  SandboxSpec with_network;
  with_network.network = SandboxNetwork::on;
  ProcessResult inside = run_command(table, connect_command(listener.port()), workspace.path(), with_network);
  BOOST_TEST(inside.output == "connected\n");
}

BOOST_AUTO_TEST_CASE(only_the_workspace_is_writable) {
  test::TempFolder workspace;
  test::TempFolder elsewhere;
  ProcessTable table;
  std::string outside_file = (elsewhere.path() / "escaped.txt").string();
  std::string scratch = "/tmp/agent-run-sandbox-scratch-" + std::to_string(::getpid());
  ProcessResult result =
      run_command(table,
                  "echo inside > made.txt && echo ok; echo outside > " + test::shell_quote(outside_file) +
                      "; touch /etc/agent-run-sandbox-test; echo tmp > " + scratch + " && cat " + scratch,
                  workspace.path(), SandboxSpec{});
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(workspace.read("made.txt") == "inside\n");
  BOOST_TEST(!std::filesystem::exists(outside_file));
  BOOST_TEST(!std::filesystem::exists("/etc/agent-run-sandbox-test"));
  BOOST_TEST(result.output.find("Read-only file system") != std::string::npos);
  BOOST_TEST(result.output.ends_with("tmp\n"));   // a private /tmp works
  BOOST_TEST(!std::filesystem::exists(scratch));  // ... and vanishes with the command
}

BOOST_AUTO_TEST_CASE(a_timeout_kills_the_sandboxed_command_and_its_children) {
  test::TempFolder workspace;
  ProcessTable table;
  ProcessResult result = run_command(table, "sleep 1000 & sleep 1000", workspace.path(), SandboxSpec{}, 300ms);
  BOOST_TEST(result.timed_out);
  BOOST_TEST(processes_marked(table.marker()).empty());
}

BOOST_AUTO_TEST_CASE(an_escape_inside_the_sandbox_dies_with_it) {
  test::TempFolder workspace;
  ProcessTable table;
  ProcessResult result =
      run_command(table,
                  "setsid sleep 1000 >/dev/null 2>&1 & p=$!; "
                  "until [ \"$(cat /proc/$p/comm 2>/dev/null)\" = sleep ]; do sleep 0.01; done; echo started",
                  workspace.path(), SandboxSpec{});
  BOOST_TEST(result.output == "started\n");
  // Its PID namespace ends with the command, and the kernel kills what is left in it: nobody else
  // does (the table kills escapes only when the attempt ends), but a process may still be dying.
  for (pid_t pid : processes_marked(table.marker())) BOOST_TEST(test::is_gone_soon(pid));
}

BOOST_AUTO_TEST_CASE(the_runner_environment_and_folder_carry_into_the_sandbox) {
  test::TempFolder workspace;
  ProcessTable table;
  std::filesystem::create_directory(workspace.path() / "sub");
  ProcessSpec spec = shell_command("pwd; echo $GREETING", workspace.path() / "sub", 30s);
  spec.environment = std::vector<std::string>{"GREETING=hello", "PATH=/usr/bin:/bin"};
  auto result = table.run(sandboxed(spec, SandboxSpec{}, workspace.path()));
  BOOST_REQUIRE(result.has_value());
  BOOST_TEST(result->output == (workspace.path() / "sub").string() + "\nhello\n");
}

BOOST_AUTO_TEST_CASE(a_command_has_no_capability_and_cannot_remount_or_unmount) {
  test::TempFolder workspace;
  ProcessTable table;
  // Run by root (CI jobs, containers), a command without its own user namespace kept every capability
  // and undid the read-only mounts; with one, it has none in any set and can gain none.
  ProcessResult caps = run_command(table, "grep -E '^(CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs):' /proc/self/status",
                                   workspace.path(), SandboxSpec{});
  BOOST_TEST(caps.output ==
             "CapPrm:\t0000000000000000\nCapEff:\t0000000000000000\nCapBnd:\t0000000000000000\n"
             "CapAmb:\t0000000000000000\nNoNewPrivs:\t1\n");
  std::string canary = "/etc/agent-run-remount-canary-" + std::to_string(::getpid());
  ProcessResult remount = run_command(table,
                                      "mount -o remount,rw /; echo remount=$?; umount /tmp; echo umount=$?; "
                                      "echo pwned > " +
                                          canary + "; echo write=$?",
                                      workspace.path(), SandboxSpec{});
  BOOST_TEST_INFO(remount.output);
  BOOST_TEST(remount.output.find("remount=0") == std::string::npos);
  BOOST_TEST(remount.output.find("umount=0") == std::string::npos);
  BOOST_TEST(remount.output.find("write=0") == std::string::npos);
  BOOST_TEST(remount.output.find("Read-only file system") != std::string::npos);
  BOOST_TEST(!std::filesystem::exists(canary));
}

BOOST_AUTO_TEST_CASE(the_machine_s_run_folder_and_its_sockets_are_hidden) {
  test::TempFolder workspace;
  ProcessTable table;
  std::error_code ec;
  BOOST_REQUIRE_MESSAGE(!std::filesystem::is_empty("/run", ec), "this test needs a machine whose /run holds something");
  ProcessResult inside = run_command(table, "ls -A /run; echo end", workspace.path(), SandboxSpec{});
  BOOST_TEST(inside.output == "end\n");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(sandbox_availability)

BOOST_AUTO_TEST_CASE(bubblewrap_works_on_this_machine) {
  auto works = check_sandbox_works(SandboxSpec{});
  if (!works && std::getenv(k_skip_variable)) {
    BOOST_TEST_MESSAGE("sandbox tests skipped (" << k_skip_variable << " is set): " << works.error().message);
    return;
  }
  BOOST_TEST(works.has_value(), (works ? std::string() : works.error().message) +
                                    "; the sandbox tests were skipped. Set " + k_skip_variable +
                                    "=1 to accept that on this machine");
}

BOOST_AUTO_TEST_CASE(without_bubblewrap_a_sandboxed_task_is_an_error_never_unsandboxed) {
  std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
  ::setenv("PATH", "/nonexistent", 1);
  auto works = check_sandbox_works(SandboxSpec{});
  ::setenv("PATH", path.c_str(), 1);
  BOOST_REQUIRE(!works.has_value());
  BOOST_TEST(works.error().message ==
             "the task asks for a sandbox, but bubblewrap is not installed (cannot run 'bwrap': No such file or "
             "directory); install Debian's 'bubblewrap' package (ci/setup.sh does), or remove 'sandbox:'");
}

BOOST_AUTO_TEST_CASE(the_command_line_puts_the_command_after_bubblewrap_s_options) {
  ProcessSpec spec = shell_command("make", "/srv/ws/sub", 5s);
  ProcessSpec wrapped = sandboxed(spec, SandboxSpec{}, "/srv/ws");
  std::string line = join(wrapped.argv, " ");
  BOOST_TEST(line ==
             "bwrap --die-with-parent --new-session --unshare-user --unshare-pid --unshare-ipc --unshare-uts "
             "--unshare-net --cap-drop ALL --ro-bind / / --tmpfs /tmp --tmpfs /var/tmp --bind /srv/ws /srv/ws "
             "--tmpfs /run --dev /dev --proc /proc --chdir /srv/ws/sub -- /bin/sh -c make");
  BOOST_TEST(wrapped.timeout.count() == 5000);
  BOOST_TEST(wrapped.cwd == "/srv/ws/sub");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
