// A check's program, a project checker or an MCP server command that resolves on this machine under
// /tmp or /var/tmp is hidden by the sandbox (each replaces them with empty folders of its own): found
// before the agent's first turn, with a message that says why, instead of "not found" after all its turns.
#include "batch/batch_fixture.h"
#include "batch/hidden_programs.h"

#include <boost/test/unit_test.hpp>

#include <fstream>

namespace agent_run {
namespace {

namespace fs = std::filesystem;
using test::BatchFixture;
using test::RecordingObserver;
using test::TempFolder;

/// An executable script named `name` in `folder`.
fs::path script_in(const fs::path& folder, const std::string& name) {
  fs::create_directories(folder);
  const fs::path file = folder / name;
  std::ofstream(file) << "#!/bin/sh\nexit 0\n";
  fs::permissions(file, fs::perms::owner_all | fs::perms::group_read | fs::perms::others_read);
  return file;
}

Task task_checking(const std::string& run) {
  Task task;
  task.source = "tasks/t.yaml";
  task.checks.push_back(Check{run, false, false, std::nullopt});
  task.origins["checks[0]"] = "tasks/t.yaml:4:5";
  return task;
}

std::optional<HiddenProgram> hidden(const Task& task, const std::vector<std::string>& environment,
                                    const fs::path& workspace = {}, SandboxMode mode = SandboxMode::bubblewrap) {
  SandboxSpec sandbox;
  sandbox.mode = mode;
  return program_hidden_by_sandbox(task, sandbox, environment, workspace, {});
}

}  // namespace

BOOST_AUTO_TEST_SUITE(hidden_programs)

BOOST_AUTO_TEST_CASE(a_check_program_under_tmp_is_hidden_and_the_message_says_why) {
  TempFolder tmp(fs::path("/tmp"));
  const fs::path check = script_in(tmp.path(), "check.sh");
  auto found = hidden(task_checking(check.string() + " --quick"), {"PATH=/usr/bin:/bin"});
  BOOST_REQUIRE(found.has_value());
  BOOST_TEST(found->where == "tasks/t.yaml:4:5");
  BOOST_TEST(found->why.find("'checks[0]' (`" + check.string() + " --quick`) runs " + check.string() +
                             ", which is under /tmp on this machine: the sandbox replaces /tmp with an empty folder "
                             "of its own, so there it is not found") == 0,
             found->why);
  BOOST_TEST(!found->mcp_server);
  BOOST_TEST(!hidden(task_checking(check.string()), {"PATH=/usr/bin"}, {}, SandboxMode::off).has_value());
  BOOST_TEST(!hidden(task_checking(check.string()), {"PATH=/usr/bin"}, tmp.path()).has_value());  // the workspace is bound back
  BOOST_TEST(hidden(task_checking("python3 " + check.string()), {"PATH=/usr/bin"}).has_value());  // an argument too
}

BOOST_AUTO_TEST_CASE(a_program_found_on_path_under_var_tmp_is_hidden_unless_a_visible_one_follows) {
  TempFolder var_tmp(fs::path("/var/tmp"));
  script_in(var_tmp.path() / "bin", "lint-it");
  const std::string path = "PATH=" + (var_tmp.path() / "bin").string() + ":/usr/bin:/bin";
  auto found = hidden(task_checking("lint-it src"), {path});
  BOOST_REQUIRE(found.has_value());
  BOOST_TEST(found->why.find("which is under /var/tmp") != std::string::npos, found->why);
  BOOST_TEST(!hidden(task_checking("! grep -q x y"), {path}).has_value());  // grep is in /usr/bin or /bin
  TempFolder visible(test::visible_scratch());
  script_in(visible.path(), "lint-it");
  BOOST_TEST(!hidden(task_checking("lint-it src"), {path + ":" + visible.path().string()}).has_value());
}

BOOST_AUTO_TEST_CASE(an_mcp_server_command_under_tmp_is_hidden_unless_it_runs_outside_the_sandbox) {
  TempFolder tmp(fs::path("/tmp"));
  const fs::path server = script_in(tmp.path(), "server.py");
  Task task;
  task.source = "tasks/t.yaml";
  McpServerSpec spec;
  spec.name = "tools";
  spec.origin = "tasks/t.yaml:7:5";
  spec.command = {"python3", server.string()};
  task.mcp_servers.push_back(spec);
  auto found = hidden(task, {"PATH=/usr/bin:/bin"});
  BOOST_REQUIRE(found.has_value());
  BOOST_TEST(found->mcp_server);
  BOOST_TEST(found->where == "tasks/t.yaml:7:5");
  BOOST_TEST(found->why.find("the MCP server 'tools' runs " + server.string()) == 0, found->why);
  task.mcp_servers[0].sandbox = McpSandbox::off;
  BOOST_TEST(!hidden(task, {"PATH=/usr/bin:/bin"}).has_value());
}

BOOST_AUTO_TEST_CASE(an_attempt_whose_check_the_sandbox_hides_ends_before_the_agents_first_turn) {
  TempFolder tmp(fs::path("/tmp"));
  const fs::path check = script_in(tmp.path(), "check.sh");
  BatchFixture fixture(std::map<std::string, std::string>{
      {"t.yaml", "prompt: Say hi.\npolicy: ../policy.yaml\nchecks:\n  - run: " + check.string() +
                     "\nscript:\n  - say: hi\n"}});
  RecordingObserver observer;
  auto report = run_batch(fixture.plans(), fixture.settings, RunReport{}, observer, 1);
  BOOST_REQUIRE(report.has_value());
  const AttemptResult& attempt = report->attempts.at(0);
  BOOST_TEST(to_string(attempt.outcome_type) == "check.not_judged", attempt.message);
  BOOST_TEST(attempt.message.find("runs " + check.string() + ", which is under /tmp") != std::string::npos,
             attempt.message);
  BOOST_TEST(attempt.message.find("the attempt ended before the agent's first turn") != std::string::npos);
  BOOST_TEST(attempt.turns == 0);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
