// The project gate (`no_new_diagnostics: project`) end to end: real git repositories, the scripted
// agent through the real loop, real pyright and go vet, in the attempt's sandbox.
#include "base/files.h"
#include "batch/baseline_cache.h"
#include "batch_fixture.h"
#include "diagnostics/edit_checker.h"
#include "exec/child_process.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>

using namespace agent_run;
using namespace agent_run::test;
namespace fs = std::filesystem;

namespace {

fs::path npm_bin() { return tools_folder() / "node_modules/.bin"; }

/// A folder outside /tmp (so the sandbox sees it) holding links to the checkers a test allows,
/// first on PATH; then the machine's /usr/bin and /bin (pyflakes3, go, node, sh, but no language server).
class Checkers {
 public:
  /// `npm_programs` from .tools; `machine_programs` from agent-run's own PATH (cargo, rustc).
  explicit Checkers(const std::vector<std::string>& npm_programs,
                    const std::vector<std::string>& machine_programs = {}) {
    fs::create_directories(visible_scratch());
    auto made = make_unique_folder(visible_scratch(), "gate-tools-");
    BOOST_REQUIRE(made.has_value());
    m_folder = *made;
    for (const std::string& program : npm_programs) {
      BOOST_REQUIRE_MESSAGE(fs::exists(npm_bin() / program),
                            program + " is not installed: run ci/install-diagnostics-tools.sh");
      fs::create_symlink(npm_bin() / program, m_folder / program);
    }
    const std::vector<std::string> machine = {"PATH=" +
                                              std::string(::getenv("PATH") ? ::getenv("PATH") : "/usr/bin:/bin")};
    for (const std::string& program : machine_programs) {
      auto found = find_program(program, machine);
      BOOST_REQUIRE_MESSAGE(found.has_value(), program + " is not installed: run ci/install-diagnostics-tools.sh");
      fs::create_symlink(fs::absolute(*found), m_folder / program);
    }
  }
  ~Checkers() {
    std::error_code ec;
    fs::remove_all(m_folder, ec);
  }
  std::vector<std::string> environment() const {
    return {"PATH=" + m_folder.string() + ":/usr/bin:/bin", "HOME=" + std::string(::getenv("HOME"))};
  }
  const fs::path& folder() const { return m_folder; }

 private:
  fs::path m_folder;
};

/// Adds `files` to the fixture's repository in a second commit.
void commit_files(const BatchFixture& fixture, const std::map<std::string, std::string>& files) {
  for (const auto& [name, text] : files) {
    fs::create_directories((fixture.repo / name).parent_path());
    BOOST_REQUIRE(write_file_atomically(fixture.repo / name, text).has_value());
  }
  CommandResult committed = run_shell(
      "git add -A && git -c user.name=test -c user.email=test@example.invalid commit -q -m project", fixture.repo);
  BOOST_REQUIRE_MESSAGE(committed.exit_code == 0, committed.output);
}

const std::map<std::string, std::string> k_python_project = {
    {"a.py", "def helper():\n    return 1\n"},
    {"b.py", "from a import helper\n\nprint(helper())\n"},
};

/// A task whose scripted agent renames helper in a.py (breaking b.py's import), with `checks`.
std::string rename_task(const std::string& checks, const std::string& more = "") {
  return "prompt: rename helper\npolicy: ../policy.yaml\n" + more + "checks:\n" + checks +
         "script:\n"
         "  - call: {tool: read_file, input: {path: a.py}}\n"
         "  - call: {tool: edit_file, input: {path: a.py, old: \"def helper(\", new: \"def assist(\"}}\n"
         "  - say: Done.\n";
}

/// The attempt's check that ran as `run`.
/// A task whose scripted agent replaces `old` by `new` in `file`, gated by `no_new_diagnostics: project`
/// with `gate_options` (lines such as "    checker: pyright\n").
std::string edit_task(const std::string& file, const std::string& old, const std::string& replacement,
                      const std::string& gate_options = "") {
  return "prompt: p\npolicy: ../policy.yaml\nchecks:\n  - no_new_diagnostics: project\n" + gate_options +
         "script:\n"
         "  - call: {tool: read_file, input: {path: " +
         file +
         "}}\n"
         "  - call: {tool: edit_file, input: {path: " +
         file + ", old: \"" + old + "\", new: \"" + replacement +
         "\"}}\n"
         "  - say: Done.\n";
}

const CheckRecord& check_named(const AttemptResult& result, const std::string& run) {
  for (const CheckRecord& check : result.checks) {
    if (check.run == run) return check;
  }
  BOOST_FAIL("no check " + run);
  return result.checks.front();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(project_gate)

BOOST_AUTO_TEST_CASE(a_rename_that_breaks_an_import_in_another_file_is_caught_by_pyright_and_missed_per_edit) {
  BatchFixture fixture({{"t.yaml", rename_task("  - no_new_diagnostics: true\n  - no_new_diagnostics: project\n")}});
  commit_files(fixture, k_python_project);
  Checkers checkers({"pyright"});
  fixture.settings.environment = checkers.environment();
  DiagnosticsSettings generous;  // a budget a loaded machine cannot miss: which checker answered is the point
  generous.budget = std::chrono::seconds(120);
  EditChecker per_edit(generous);  // no pyright-langserver on this PATH: pyflakes3, one file at a time
  fixture.settings.diagnostics = &per_edit;
  AttemptResult result = run_attempt(fixture.plans().front(), fixture.settings);
  BOOST_TEST(result.sandboxed);
  BOOST_REQUIRE(result.edits.size() == 1u);
  BOOST_REQUIRE(result.edits[0].diagnostics.has_value());
  BOOST_TEST(result.edits[0].diagnostics->checker == "pyflakes");
  BOOST_TEST(check_named(result, "no_new_diagnostics").passed);
  BOOST_TEST(check_named(result, "no_new_diagnostics").output_tail == "the edits introduced no diagnostics\n");
  const CheckRecord& gate = check_named(result, "no_new_diagnostics: project");
  BOOST_TEST(!gate.passed);
  BOOST_TEST(gate.exit_code == 1);
  BOOST_TEST(gate.output_tail ==
             "1 new diagnostic in the project (pyright: 0 before the agent, 1 after):\n"
             "b.py:1:15: error: \"helper\" is unknown import symbol [reportAttributeAccessIssue]\n");
  BOOST_TEST((result.outcome_type == OutcomeType::check_failed), result.message);
}

BOOST_AUTO_TEST_CASE(a_line_added_above_an_old_problem_does_not_make_it_new) {
  BatchFixture fixture(
      {{"t.yaml", edit_task("c.py", "count: int", "# how many there are\\n\\n\\ncount: int", "    checker: pyright\n")}});
  commit_files(fixture, {{"c.py", "count: int = \"many\"\n"}});
  Checkers checkers({"pyright"});
  fixture.settings.environment = checkers.environment();
  AttemptResult result = run_attempt(fixture.plans().front(), fixture.settings);
  const CheckRecord& gate = check_named(result, "no_new_diagnostics: project");
  BOOST_TEST(gate.passed, gate.output_tail);
  BOOST_TEST(gate.output_tail == "no new diagnostics in the project (pyright: 1 before the agent, 1 after)\n");
  BOOST_TEST((result.outcome_type == OutcomeType::passed), result.message);
}

BOOST_AUTO_TEST_CASE(a_go_rename_is_caught_by_go_vet_over_the_module) {
  BatchFixture fixture({{"t.yaml", edit_task("lib/lib.go", "func Helper(", "func Assist(")}});
  commit_files(fixture, {{"go.mod", "module example.com/m\n\ngo 1.19\n"},
                         {"lib/lib.go", "package lib\n\nfunc Helper() int { return 1 }\n"},
                         {"main.go", "package main\n\nimport \"example.com/m/lib\"\n\nfunc main() { _ = lib.Helper() }\n"}});
  Checkers checkers({});
  fixture.settings.environment = checkers.environment();
  AttemptResult result = run_attempt(fixture.plans().front(), fixture.settings);
  const CheckRecord& gate = check_named(result, "no_new_diagnostics: project");
  BOOST_TEST(!gate.passed);
  BOOST_TEST(gate.output_tail ==
             "1 new diagnostic in the project (go vet: 0 before the agent, 1 after):\n"
             "main.go:5:23: error: Helper not declared by package lib\n");
}

BOOST_AUTO_TEST_CASE(a_typescript_export_renamed_is_caught_in_its_importer_by_tsc_and_an_old_error_is_not_new) {
  BatchFixture fixture({{"t.yaml", edit_task("src/lib.ts", "export function helper(", "export function assist(")}});
  commit_files(fixture, {{"tsconfig.json",
                          "{\"compilerOptions\": {\"strict\": true, \"noEmit\": true}, "
                          "\"include\": [\"src\"]}\n"},
                         {"src/lib.ts", "export function helper(): number {\n  return 1;\n}\n"},
                         {"src/main.ts",
                          "import { helper } from \"./lib\";\n\nconst n: number = helper();\n"
                          "console.log(n);\n"},
                         {"src/old.ts", "export const label: string = 42;\n"}});
  Checkers checkers({"tsc"});
  fixture.settings.environment = checkers.environment();
  AttemptResult result = run_attempt(fixture.plans().front(), fixture.settings);
  BOOST_TEST(result.sandboxed);
  const CheckRecord& gate = check_named(result, "no_new_diagnostics: project");
  BOOST_TEST(!gate.passed);
  BOOST_TEST(gate.output_tail ==
             "1 new diagnostic in the project (tsc: 1 before the agent, 2 after):\n"
             "src/main.ts:1:10: error: Module '\"./lib\"' has no exported member 'helper'. [TS2305]\n");
  BOOST_TEST((result.outcome_type == OutcomeType::check_failed), result.message);
}

// ESLint's core rules read one file at a time: a renamed export is not seen in its importer (the
// docs/diagnostics.md says so). What the project gate adds is the whole project under the project's own config:
// a global renamed in eslint.config.mjs breaks the file that uses it, which no per-edit lint of
// the config file would see.
BOOST_AUTO_TEST_CASE(eslint_over_the_project_catches_a_config_edit_that_breaks_another_file_but_not_a_renamed_export) {
  const std::string config =
      "export default [{\n  languageOptions: {globals: {console: \"readonly\", shared: \"readonly\"}},\n"
      "  rules: {\"no-undef\": \"error\", \"no-unused-vars\": \"warn\"},\n}];\n";
  BatchFixture fixture(
      {{"globals.yaml", edit_task("eslint.config.mjs", "shared: \\\"readonly\\\"", "other: \\\"readonly\\\"")},
       {"export.yaml", edit_task("src/lib.js", "export function helper(", "export function assist(")}});
  commit_files(fixture, {{"eslint.config.mjs", config},
                         {"src/lib.js", "export function helper() {\n  return 1;\n}\n"},
                         {"src/main.js", "import { helper } from \"./lib.js\";\n\nconsole.log(helper(), shared);\n"},
                         {"src/old.js", "const unused = 1;\n"}});
  Checkers checkers({"eslint"});
  fixture.settings.environment = checkers.environment();
  for (const AttemptPlan& plan : fixture.plans()) {
    AttemptResult result = run_attempt(plan, fixture.settings);
    BOOST_TEST(result.sandboxed);
    const CheckRecord& gate = check_named(result, "no_new_diagnostics: project");
    if (plan.task->id == "globals") {
      BOOST_TEST(!gate.passed);
      BOOST_TEST(gate.output_tail ==
                 "1 new diagnostic in the project (eslint: 1 before the agent, 2 after):\n"
                 "src/main.js:3:23: error: 'shared' is not defined. [no-undef]\n");
    } else {
      BOOST_TEST(gate.passed, gate.output_tail);
      BOOST_TEST(gate.output_tail == "no new diagnostics in the project (eslint: 1 before the agent, 1 after)\n");
    }
  }
}

BOOST_AUTO_TEST_CASE(
    a_rust_function_renamed_in_a_module_is_caught_in_its_caller_by_cargo_check_and_an_old_error_is_not_new) {
  BatchFixture fixture({{"t.yaml", edit_task("src/util.rs", "pub fn helper(", "pub fn assist(")}});
  commit_files(fixture,
               {{"Cargo.toml", "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n"},
                {"src/util.rs", "pub fn helper() -> i32 {\n    1\n}\n"},
                {"src/old.rs", "pub fn total() -> i32 {\n    missing + 1\n}\n"},
                {"src/main.rs",
                 "mod old;\nmod util;\n\nfn main() {\n    println!(\"{} {}\", util::helper(), old::total());\n}\n"}});
  // The old problem is an error, not a warning: once a name cannot be resolved rustc stops before
  // its lints, so an old warning would simply vanish from the final tree's list.
  Checkers checkers({}, {"cargo", "rustc"});
  fixture.settings.environment = checkers.environment();
  AttemptResult result = run_attempt(fixture.plans().front(), fixture.settings);
  BOOST_TEST(result.sandboxed);
  const CheckRecord& gate = check_named(result, "no_new_diagnostics: project");
  BOOST_TEST(!gate.passed);
  // rustc 1.63 (Debian 12's) gives the span no label; later ones add ": not found in `util`".
  const std::string& tail = gate.output_tail;
  BOOST_TEST(tail.starts_with("1 new diagnostic in the project (cargo check: 1 before the agent, 2 after):\n"
                              "src/main.rs:5:29: error: cannot find function `helper` in module `util`"),
             tail);
  BOOST_TEST(tail.ends_with(" [E0425]\n"), tail);
  BOOST_TEST(std::count(tail.begin(), tail.end(), '\n') == 2, tail);
}

// compile_commands.json as CMake writes it in setup: its paths point into the workspace, and build/ is
// ignored by git, so the baseline tree holds the sources but not the database. Its entries are
// moved into the baseline tree; were they not, the old warning would be read outside the tree and
// count as new. Each attempt has a workspace of its own, so the second finds the first's baseline
// in the cache only because the key names the entries with the workspace's folder left out.
BOOST_AUTO_TEST_CASE(
    a_cpp_function_renamed_in_a_header_is_caught_in_its_caller_by_the_compiler_over_compile_commands_json) {
  BatchFixture fixture(
      {{"t.yaml", std::string("prompt: p\npolicy: ../policy.yaml\nrepeat: 2\n") +
                      "setup:\n  - cmake -S . -B build -DCMAKE_EXPORT_COMPILE_COMMANDS=ON > /dev/null\n"
                      "checks:\n  - no_new_diagnostics: project\nscript:\n"
                      "  - call: {tool: read_file, input: {path: include/lib.h}}\n"
                      "  - call: {tool: edit_file, input: {path: include/lib.h, old: \"int helper(\", "
                      "new: \"int assist(\"}}\n"
                      "  - say: Done.\n"}});
  commit_files(fixture, {{".gitignore", "build/\n"},
                         {"CMakeLists.txt",
                          "cmake_minimum_required(VERSION 3.16)\nproject(demo CXX)\n"
                          "set(CMAKE_CXX_FLAGS \"-Wall\")\ninclude_directories(include)\n"
                          "add_executable(demo src/main.cpp src/lib.cpp src/old.cpp)\n"},
                         {"include/lib.h", "int helper();\n"},
                         {"src/lib.cpp", "#include \"lib.h\"\nint helper() { return 1; }\n"},
                         {"src/main.cpp", "#include \"lib.h\"\nint main() { return helper(); }\n"},
                         {"src/old.cpp", "int total() {\n  int unused = 0;\n  return 1;\n}\n"}});
  Checkers checkers({});  // cmake and c++ from /usr/bin
  fixture.settings.environment = checkers.environment();
  TempFolder cache_folder;
  BaselineCache cache(cache_folder.path());
  fixture.settings.baseline_cache = &cache;
  RecordingObserver observer;
  auto report = run_batch(fixture.plans(), fixture.settings, RunReport{}, observer, 1);
  BOOST_REQUIRE(report.has_value());
  BOOST_REQUIRE(report->attempts.size() == 2u);
  const std::string problem = "src/main.cpp:2:21: error: 'helper' was not declared in this scope\n";
  for (const AttemptResult& result : report->attempts) {
    BOOST_TEST(result.sandboxed);
    BOOST_TEST(!check_named(result, "no_new_diagnostics: project").passed);
    BOOST_TEST((result.outcome_type == OutcomeType::check_failed), result.message);
  }
  BOOST_TEST(check_named(report->attempts[0], "no_new_diagnostics: project").output_tail ==
             "1 new diagnostic in the project (compiler: 1 before the agent, 2 after):\n" + problem);
  BOOST_TEST(check_named(report->attempts[1], "no_new_diagnostics: project").output_tail ==
             "1 new diagnostic in the project (compiler: 1 before the agent, from the cache, 2 after):\n" + problem);
}

BOOST_AUTO_TEST_CASE(a_second_attempt_takes_the_baseline_from_the_cache_and_a_later_run_too) {
  TempFolder temp;
  fs::create_directories(temp.path() / "bin");
  const fs::path log = temp.path() / "pyright.log";
  // A wrapper that logs each real invocation, then runs the real pyright.
  const std::string wrapper = "#!/bin/sh\necho \"$PWD $*\" >> " + shell_quote(log.string()) + "\nexec " +
                              shell_quote((npm_bin() / "pyright").string()) + " \"$@\"\n";
  BOOST_REQUIRE(write_file_atomically(temp.path() / "bin/pyright", wrapper).has_value());
  fs::permissions(temp.path() / "bin/pyright", fs::perms::owner_all);
  // Without the sandbox: the wrapper's log is outside the workspace, which the sandbox keeps read-only.
  BatchFixture fixture(
      {{"t.yaml", rename_task("  - no_new_diagnostics: project\n", "sandbox: off\nrepeat: 2\n")}});
  commit_files(fixture, k_python_project);
  fixture.settings.environment = {"PATH=" + (temp.path() / "bin").string() + ":/usr/bin:/bin",
                                  "HOME=" + std::string(::getenv("HOME"))};
  auto count = [&](const std::string& word) {
    return run_shell("grep -c -- '" + word + "' " + shell_quote(log.string()) + " || true", temp.path()).output;
  };
  {
    BaselineCache cache(temp.path() / "cache");
    fixture.settings.baseline_cache = &cache;
    RecordingObserver observer;
    auto report = run_batch(fixture.plans(), fixture.settings, RunReport{}, observer, 1);
    BOOST_REQUIRE(report.has_value());
    BOOST_REQUIRE(report->attempts.size() == 2u);
    BOOST_TEST(count("--outputjson") == "3\n");        // the baseline once, the final tree twice
    BOOST_TEST(count("agent-run-baseline-") == "1\n");  // the baseline in a scratch checkout, not the workspace
    BOOST_TEST(count("--version") == "1\n");
    BOOST_TEST(check_named(report->attempts[0], "no_new_diagnostics: project").output_tail.starts_with(
        "1 new diagnostic in the project (pyright: 0 before the agent, 1 after):\n"));
    BOOST_TEST(check_named(report->attempts[1], "no_new_diagnostics: project").output_tail.starts_with(
        "1 new diagnostic in the project (pyright: 0 before the agent, from the cache, 1 after):\n"));
  }
  BaselineCache next_run(temp.path() / "cache");  // a new run: what the first stored on disk
  fixture.settings.baseline_cache = &next_run;
  AttemptResult again = run_attempt(fixture.plans().front(), fixture.settings);
  BOOST_TEST(count("--outputjson") == "4\n");
  BOOST_TEST(count("agent-run-baseline-") == "1\n");
  BOOST_TEST(check_named(again, "no_new_diagnostics: project").output_tail.find("from the cache") !=
             std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_checker_runs_in_the_sandbox_where_it_cannot_read_a_hidden_file_nor_write_outside) {
  fs::create_directories(visible_scratch());
  auto outside_folder = make_unique_folder(visible_scratch(), "gate-outside-");
  BOOST_REQUIRE(outside_folder.has_value());
  const fs::path outside = *outside_folder / "written";
  const std::string command = "echo \\\"a.py:1:1: error: read $(cat .env 2>&1 | head -c 60)\\\"; echo leak > " +
                              outside.string() +
                              " 2>/dev/null && echo \\\"a.py:2:1: error: wrote outside\\\"; true";
  BatchFixture fixture({{"t.yaml", "prompt: p\npolicy: ../policy.yaml\nchecks:\n  - no_new_diagnostics: project\n"
                                   "    command: \"" + command + "\"\nscript:\n  - say: Done.\n"}});
  commit_files(fixture, {{".env", "TOPSECRET-123\n"}, {"a.py", "x = 1\n"}});
  auto policy = load_policy(std::string(k_allow_all_policy) +
                                "  - id: secrets\n    deny: [read_file, glob, grep, edit_file, write_file, bash]\n"
                                "    paths: [.env]\n",
                            fixture.repo / "policy.yaml");
  BOOST_REQUIRE_MESSAGE(policy.has_value(), (policy ? std::string() : policy.error().message));
  fixture.policy = *policy;
  fixture.settings.environment = {"PATH=/usr/bin:/bin", "HOME=" + std::string(::getenv("HOME"))};
  TempFolder cache_folder;
  BaselineCache cache(cache_folder.path());
  fixture.settings.baseline_cache = &cache;
  AttemptResult result = run_attempt(fixture.plans().front(), fixture.settings);
  BOOST_TEST(result.sandboxed);
  const CheckRecord& gate = check_named(result, "no_new_diagnostics: project");
  // The baseline tree holds no .env at all; the final tree's is masked.
  BOOST_TEST(gate.output_tail ==
             "1 new diagnostic in the project (command: 1 before the agent, 1 after):\n"
             "a.py:1:1: error: read cat: .env: Permission denied\n");
  BOOST_TEST(!fs::exists(outside));
  CommandResult stored = run_shell("cat *.json", cache_folder.path());
  BOOST_TEST(stored.output.find("No such file or directory") != std::string::npos, stored.output);
  BOOST_TEST(stored.output.find("TOPSECRET") == std::string::npos);
  std::error_code ec;
  fs::remove_all(*outside_folder, ec);
}

BOOST_AUTO_TEST_CASE(a_missing_checker_ends_the_attempt_before_the_agents_first_turn_naming_it_and_what_to_install) {
  BatchFixture fixture({{"named.yaml", rename_task("  - no_new_diagnostics: project\n    checker: pyright\n")},
                        {"chosen.yaml", rename_task("  - no_new_diagnostics: project\n")}});
  commit_files(fixture, k_python_project);
  Checkers checkers({});  // neither pyright nor ruff
  fixture.settings.environment = checkers.environment();
  for (const AttemptPlan& plan : fixture.plans()) {
    AttemptResult result = run_attempt(plan, fixture.settings);
    BOOST_TEST((result.outcome_type == OutcomeType::check_not_judged), result.message);
    BOOST_TEST((result.outcome == Outcome::error));
    const std::string file = plan.task->source.string();
    std::string expected =
        plan.task->id == "named"
            ? file +
                  ":5:14: 'checks[0]' (no_new_diagnostics: project): the checker 'pyright' it names is not "
                  "installed (neither in the project's node_modules/.bin nor on PATH); install it: npm install "
                  "pyright; the attempt ended before the agent's first turn"
            : file +
                  ":4:25: 'checks[0]' (no_new_diagnostics: project): the project holds Python but no checker for "
                  "it is installed (pyright or ruff, neither in the project's node_modules/.bin nor on PATH); "
                  "install one (npm install pyright, or pipx install ruff), or name another with 'checker:'; the "
                  "attempt ended before the agent's first turn";
    BOOST_TEST(result.message == expected);
    BOOST_TEST(result.turns == 0);  // the scripted agent never read nor edited a.py
    BOOST_TEST(result.edits.empty());
    BOOST_TEST(result.checks.empty());
    BOOST_TEST(result.transcript_path.empty());
  }
}

BOOST_AUTO_TEST_CASE(a_checker_that_times_out_or_crashes_is_not_judged_and_named) {
  BatchFixture fixture(
      {{"slow.yaml", rename_task("  - no_new_diagnostics: project\n    command: \"sleep 30\"\n",
                                 "limits: {tool_timeout: 1s}\n")},
       {"crash.yaml", rename_task("  - no_new_diagnostics: project\n    command: \"echo boom; kill -SEGV $$\"\n")},
       {"garbage.yaml", rename_task("  - no_new_diagnostics: project\n    command: \"echo boom; exit 3\"\n")}});
  commit_files(fixture, k_python_project);
  fixture.settings.environment = {"PATH=/usr/bin:/bin", "HOME=" + std::string(::getenv("HOME"))};
  std::map<std::string, std::string> expected = {
      {"slow", "no_new_diagnostics: project cannot be judged: on the baseline tree, command did not finish within "
               "1s (the task's tool_timeout)\n"},
      // In the sandbox the entry's shell reports the crash as 128 + the signal.
      {"crash", "no_new_diagnostics: project cannot be judged: on the baseline tree, command exited 139 but printed "
                "no problem agent-run can read:\nboom\nSegmentation fault\n"},
      {"garbage", "no_new_diagnostics: project cannot be judged: on the baseline tree, command exited 3 but printed "
                  "no problem agent-run can read:\nboom\n"}};
  for (const AttemptPlan& plan : fixture.plans()) {
    AttemptResult result = run_attempt(plan, fixture.settings);
    BOOST_TEST((result.outcome_type == OutcomeType::check_not_judged), result.message);
    BOOST_TEST(result.message == expected[plan.task->id]);
  }
}

BOOST_AUTO_TEST_SUITE_END()
