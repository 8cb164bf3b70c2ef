#include "exec/attempt_sandbox.h"
#include "exec/process_group.h"
#include "support/fixtures.h"
#include "support/process_probes.h"
#include "support/sandbox_support.h"
#include "tools/tool_registry.h"

#include <boost/test/unit_test.hpp>

#include <unistd.h>

#include <cstdlib>

// The whole tools_tests binary runs as a child subreaper, as agent-run does.
using SubreaperFixture = agent_run::test::SubreaperFixture;
BOOST_GLOBAL_FIXTURE(SubreaperFixture);

using namespace agent_run;
using namespace agent_run::test;

namespace {

/// The built-in tools over a temporary workspace, with the runner's PATH.
struct BashFixture {
  TempFolder folder;
  ToolRegistry tools = make_tool_registry(std::nullopt);
  ToolScope scope;
  SessionState session;
  std::chrono::milliseconds timeout = std::chrono::minutes(2);  // what one call may take
  BashFixture() {
    scope.workspace = folder.path();
    scope.environment = {std::string("PATH=") + std::getenv("PATH")};
  }
  ToolOutput bash(const std::string& command, int timeout_seconds = 0) {
    Json input = Json::object().set("command", command);
    if (timeout_seconds > 0) input.set("timeout", timeout_seconds);
    return tools.find("bash")->run(input, scope, session, timeout);
  }
};

}  // namespace

BOOST_FIXTURE_TEST_SUITE(bash_tool, BashFixture)

BOOST_AUTO_TEST_CASE(reports_the_exit_code_or_the_signal) {
  ToolOutput failed = bash("echo out; echo err >&2; exit 3");
  BOOST_TEST(failed.content == "out\nerr\n[exit code 3]\n");
  BOOST_TEST(failed.is_error);
  BOOST_TEST(bash("kill -TERM $$").content == "[killed by signal 15 (Terminated)]\n");
  ToolOutput ok = bash("[[ 2 -gt 1 ]] && echo bash syntax works");
  BOOST_TEST(ok.content == "bash syntax works\n[exit code 0]\n");
  BOOST_TEST(!ok.is_error);
}

BOOST_AUTO_TEST_CASE(runs_in_the_workspace_with_stdin_from_dev_null) {
  BOOST_TEST(bash("pwd; cat; echo end").content == folder.path().string() + "\nend\n[exit code 0]\n");
}

BOOST_AUTO_TEST_CASE(a_timeout_kills_the_whole_group_and_says_so) {
  // On a machine so loaded that the timeout came before the job's pid was printed, the same with a
  // longer timeout: a timeout before the command set itself up proves nothing.
  int seconds = 1;
  ToolOutput output = bash("sleep 1000 & echo $!; sleep 1000", seconds);
  for (; pids_in(output.content).empty() && seconds < 64; seconds *= 2) {
    output = bash("sleep 1000 & echo $!; sleep 1000", seconds * 2);
  }
  BOOST_TEST(output.is_error);
  BOOST_TEST(
      output.content.ends_with("[timed out after " + std::to_string(seconds) + "s; its process group was killed]\n"));
  BOOST_TEST(is_gone_soon(pids_in(output.content).at(0)));
}

BOOST_AUTO_TEST_CASE(a_job_left_with_ampersand_does_not_hold_the_call) {
  ToolOutput output = bash("sleep 1000 & echo started");  // a call held by the job would time out after 2 minutes
  BOOST_TEST(output.content == "started\n[exit code 0]\n");
}

BOOST_AUTO_TEST_CASE(a_flood_of_output_is_capped_head_and_tail_with_the_omitted_count) {
  ToolOutput output = bash("seq 1 200000");
  std::string all;
  for (int i = 1; i <= 200000; ++i) all += std::to_string(i) + "\n";
  BOOST_TEST(output.content.starts_with("1\n2\n3\n"));
  BOOST_TEST(output.content.ends_with("199999\n200000\n[exit code 0]\n"));
  std::size_t kept = output.content.size() - std::string("[exit code 0]\n").size();
  BOOST_TEST(kept < 33u * 1024 + 100);
  BOOST_TEST(output.content.find("bytes omitted ...]") != std::string::npos);
  BOOST_TEST(output.content.find("[... " + std::to_string(all.size() - 32 * 1024) + " bytes omitted ...]") !=
             std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_environment_is_the_scope_s_and_carries_the_attempt_marker) {
  // The scope's environment is built without the task's secrets by exec/child_environment (called by
  // batch/attempt_session's make_tool_scope, whose test checks that); the tool adds nothing but the marker.
  scope.environment = {"VISIBLE=yes", "PATH=/usr/bin:/bin"};
  ToolOutput output = bash("env");
  BOOST_TEST(output.content.find("VISIBLE=yes\n") != std::string::npos);
  BOOST_TEST(output.content.find(session.processes.marker() + "\n") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(escapes_outlive_the_call_and_die_when_the_attempt_ends) {
  // Returns once both have left the command's session (setsid has exec'd sleep), never after a fixed time.
  ToolOutput output = bash(
      "setsid sleep 1000 >/dev/null 2>&1 & p=$!; setsid sh -c 'exec sleep 1000' >/dev/null 2>&1 & q=$!; "
      "for r in $p $q; do until [ \"$(cat /proc/$r/comm 2>/dev/null)\" = sleep ]; do sleep 0.01; done; done; "
      "echo $p");
  pid_t escaped = pids_in(output.content).at(0);
  BOOST_TEST(is_alive(escaped));
  BOOST_TEST(processes_marked(session.processes.marker()).size() == 2u);
  ProcessTableSummary summary = session.processes.stop_everything();
  BOOST_TEST(summary.escaped.size() == 2u);
  BOOST_TEST(is_gone_soon(escaped));
  BOOST_TEST(processes_marked(session.processes.marker()).empty());
  BOOST_TEST(zombie_children().empty());
}

BOOST_AUTO_TEST_CASE(background_returns_a_handle_at_once) {
  ToolOutput output = tools.find("bash")->run(Json::object().set("command", "sleep 1000").set("background", true),
                                              scope, session, std::chrono::minutes(2));
  BOOST_TEST(!output.is_error);  // returned while its sleep 1000 runs on
  BOOST_TEST(!session.processes.find("bg1")->ending().has_value());
  BOOST_TEST(output.content.starts_with("Started in the background as bg1 (pid "));
  BOOST_TEST(session.processes.find("bg1") != nullptr);
}

BOOST_AUTO_TEST_CASE(with_a_sandbox_the_command_runs_inside_it_and_writes_outside_the_workspace_fail) {
  if (!sandbox_tests_can_run()) return;
  TempFolder scratch;
  TempFolder elsewhere(visible_scratch());  // beside the build: not there inside
  SandboxRequest request;
  request.workspace = folder.path();
  auto sandbox = AttemptSandbox::start(request, scratch.path(), scope.environment);
  BOOST_REQUIRE_MESSAGE(sandbox.has_value(), (sandbox ? std::string() : sandbox.error().message));
  scope.sandbox = sandbox->get();
  ToolOutput output =
      bash("echo in > inside.txt; echo $$ $HOME; echo out > " + shell_quote((elsewhere.path() / "x").string()));
  BOOST_TEST_INFO(output.content);
  BOOST_TEST(output.is_error);  // the second write failed: the machine beside the workspace is not there
  BOOST_TEST(output.content.starts_with("2 /tmp/home\n"));  // pid 2 of its own namespace, the sandbox's HOME
  BOOST_TEST(output.content.find("x: No such file or directory") != std::string::npos);
  BOOST_TEST(folder.read("inside.txt") == "in\n");
  BOOST_TEST(!std::filesystem::exists(elsewhere.path() / "x"));
}

BOOST_AUTO_TEST_SUITE_END()
