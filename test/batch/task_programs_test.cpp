// The programs a task names are shown in its sandbox, wherever they are on this machine: a check's
// program under /tmp (which every sandbox replaces with a private one) used to be "not found" there;
// now its folder is bound back, so the attempt runs it and passes. What a task shows besides
// (`sandbox: {read, read_write}`, its env:'s PATH) is found the same way.
#include "batch/batch_fixture.h"
#include "batch/task_programs.h"
#include "support/sandbox_support.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <fstream>

namespace agent_run {
namespace {

namespace fs = std::filesystem;
using test::BatchFixture;
using test::RecordingObserver;
using test::TempFolder;

/// An executable script named `name` in `folder` that prints `says`.
fs::path script_in(const fs::path& folder, const std::string& name, const std::string& says = "ran") {
  fs::create_directories(folder);
  const fs::path file = folder / name;
  std::ofstream(file) << "#!/bin/sh\necho " << says << "\n";
  fs::permissions(file, fs::perms::owner_all | fs::perms::group_read | fs::perms::others_read);
  return file;
}

bool shows(const std::vector<ShownFolder>& folders, const fs::path& target, bool writable = false) {
  return std::any_of(folders.begin(), folders.end(), [&](const ShownFolder& folder) {
    return folder.target == target && folder.writable == writable;
  });
}

std::string listed(const std::vector<ShownFolder>& folders) {
  std::string text;
  for (const ShownFolder& folder : folders) text += folder.target.string() + " (" + folder.why + ")\n";
  return text;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(what_a_task_runs)

BOOST_AUTO_TEST_CASE(a_check_program_under_tmp_runs_in_the_attempts_sandbox) {
  if (!test::sandbox_tests_can_run()) return;
  TempFolder tmp(fs::path("/tmp"));
  const fs::path check = script_in(tmp.path(), "check.sh");
  BatchFixture fixture(std::map<std::string, std::string>{
      {"t.yaml", "prompt: Say hi.\npolicy: ../policy.yaml\nchecks:\n  - run: " + check.string() +
                     "\nscript:\n  - say: hi\n"}});
  RecordingObserver observer;
  auto report = run_batch(fixture.plans(), fixture.settings, RunReport{}, observer, 1);
  BOOST_REQUIRE(report.has_value());
  const AttemptResult& attempt = report->attempts.at(0);
  BOOST_TEST(to_string(attempt.outcome_type) == "passed", attempt.message);
  BOOST_TEST(attempt.sandboxed);
  BOOST_TEST(std::any_of(attempt.sandbox.shown.begin(), attempt.sandbox.shown.end(),
                         [&](const ShownRecord& shown) { return shown.path == tmp.path().string(); }));
}

BOOST_AUTO_TEST_CASE(checks_mcp_servers_env_and_the_sandbox_key_name_the_folders_shown) {
  TempFolder scratch(test::visible_scratch());
  const fs::path root = fs::canonical(scratch.path());
  const fs::path lint = script_in(root / "lint/bin", "lint-it");
  const fs::path server = script_in(root / "servers", "server.py");
  const fs::path extra = script_in(root / "extra/bin", "extra-tool").parent_path();
  fs::create_directories(root / "data");
  fs::create_directories(root / "home/cache");
  Task task;
  task.source = "tasks/t.yaml";
  task.checks.push_back(Check{"lint-it src && python3 " + (root / "servers/helper.py").string(), false, false, std::nullopt});
  McpServerSpec spec;
  spec.name = "tools";
  spec.command = {"python3", server.string()};
  task.mcp_servers.push_back(spec);
  McpServerSpec outside = spec;
  outside.name = "outside";
  outside.command = {"python3", (root / "lint/bin/lint-it").string()};
  outside.sandbox = McpSandbox::off;
  task.mcp_servers.push_back(outside);
  task.env["PATH"] = EnvVariable{extra.string() + ":/usr/bin", "tasks/t.yaml:3:3"};
  SandboxSpec sandbox;
  sandbox.set_by = "tasks/t.yaml:9";
  sandbox.read = {(root / "data").string()};
  sandbox.read_write = {"~/cache"};
  const std::vector<std::string> environment = {"PATH=" + lint.parent_path().string() + ":/usr/bin:/bin"};
  auto folders = task_shown_folders(task, sandbox, environment, {}, root / "home");
  BOOST_TEST(shows(folders, root / "lint"), listed(folders));      // the check's program, found on PATH
  BOOST_TEST(shows(folders, root / "servers"), listed(folders));   // the sandboxed MCP server's script
  BOOST_TEST(shows(folders, root / "extra"), listed(folders));     // the task's env: PATH
  BOOST_TEST(shows(folders, root / "data"), listed(folders));
  BOOST_TEST(shows(folders, root / "home/cache", true), listed(folders));  // ~/ is the machine's HOME
  auto programs = task_programs(task, environment, {});
  BOOST_TEST(std::none_of(programs.begin(), programs.end(),
                          [](const TaskProgram& program) { return program.setting == "the MCP server 'outside'"; }));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
