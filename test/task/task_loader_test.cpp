#include "task/task_loader.h"

#include "base/digest.h"
#include "base/text.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <string>

using namespace agent_run;
using agent_run::test::TempFolder;

namespace {

/// The error message of loading `text` as tasks/x.yaml; empty when it loads.
std::string error_of(const std::string& text) {
  Expected<Task> task = load_task(text, "tasks/x.yaml");
  return task ? std::string() : task.error().message;
}

const char* const k_full_task = R"(id: rename-parse-config
description: Rename parse_config to load_config
prompt: |
  Rename the function parse_config to load_config.
workspace:
  repo: ../repo
  ref: main
  isolation: in-place
setup: ["python3 -m pip install -e .", make]
model: anthropic/claude-sonnet-4-5
limits: {turns: 12, tokens: 400000, cost_usd: 2.5, time: 15m, tool_timeout: 90s}
tools: [read_file, grep, edit_file, bash, mcp__github__get_issue]
policy: ../policies/default.yaml
diagnostics: off
mcp_servers:
  github: {command: github-mcp}
checks:
  - run: python3 -m pytest -q
  - run: "test -f app.py"
repeat: 3
script:
  - say: "Finding callers."
    call: {tool: grep, input: {pattern: "parse_config"}}
  - calls:
      - {tool: edit_file, input: {path: app.py, old: "def parse_config", new: "def load_config"}}
      - tool: mcp__github__get_issue
        input:
          command: "true"
          timeout: 30
          ratio: 0.5
          quoted_number: "30"
          flag: true
          nothing: null
          empty:
          list: [1, two, "3"]
  - say: Done.
)";

}  // namespace

BOOST_AUTO_TEST_SUITE(task_loader)

BOOST_AUTO_TEST_CASE(a_full_task_file_loads_into_the_task) {
  TempFolder folder;
  std::filesystem::path file = folder.write("tasks/rename.yaml", k_full_task);
  Expected<Task> task = load_task_file(file);
  BOOST_REQUIRE_MESSAGE(task.has_value(), (task ? std::string() : task.error().message));
  BOOST_TEST(task->id == "rename-parse-config");
  BOOST_TEST(task->source == file);
  BOOST_TEST(task->source_sha256 == sha256_hex(k_full_task));
  BOOST_TEST(task->source_sha256.size() == 64u);
  BOOST_TEST(task->description == "Rename parse_config to load_config");
  BOOST_TEST(task->prompt == "Rename the function parse_config to load_config.\n");
  BOOST_TEST(task->workspace.repo == folder.path() / "repo");
  BOOST_TEST(task->workspace.ref == "main");
  BOOST_TEST((task->workspace.isolation == Isolation::in_place));
  BOOST_TEST((task->setup == std::vector<std::string>{"python3 -m pip install -e .", "make"}));
  BOOST_TEST(task->model == "anthropic/claude-sonnet-4-5");
  BOOST_TEST(task->limits.turns == 12);
  BOOST_TEST(task->limits.tokens.value() == 400000);
  BOOST_TEST(task->limits.cost_usd.value() == 2.5);
  BOOST_TEST(task->limits.time.count() == 15 * 60 * 1000);
  BOOST_TEST(task->limits.tool_timeout.count() == 90 * 1000);
  BOOST_TEST((task->tools.value() ==
              std::vector<std::string>{"read_file", "grep", "edit_file", "bash", "mcp__github__get_issue"}));
  BOOST_TEST(task->policy.value() == folder.path() / "policies" / "default.yaml");
  BOOST_TEST(!task->diagnostics);
  BOOST_REQUIRE_EQUAL(task->checks.size(), 2u);
  BOOST_TEST(task->checks[0].run == "python3 -m pytest -q");
  BOOST_TEST(task->checks[1].run == "test -f app.py");
  BOOST_TEST(task->repeat == 3);
  BOOST_TEST(task->script.size() == 3u);
}

BOOST_AUTO_TEST_CASE(script_turns_hold_several_calls_with_typed_input) {
  Expected<Task> task = load_task(k_full_task, "tasks/x.yaml");
  BOOST_REQUIRE_MESSAGE(task.has_value(), (task ? std::string() : task.error().message));
  BOOST_REQUIRE_EQUAL(task->script.size(), 3u);
  const ScriptedTurn& first = task->script[0];
  BOOST_TEST(first.say == "Finding callers.");
  BOOST_REQUIRE_EQUAL(first.calls.size(), 1u);
  BOOST_TEST(first.calls[0].tool == "grep");
  BOOST_TEST(first.calls[0].input.dump() == R"({"pattern":"parse_config"})");
  const ScriptedTurn& second = task->script[1];
  BOOST_TEST(second.say == "");
  BOOST_REQUIRE_EQUAL(second.calls.size(), 2u);
  BOOST_TEST(second.calls[0].tool == "edit_file");
  BOOST_TEST(second.calls[0].input.dump() == R"({"path":"app.py","old":"def parse_config","new":"def load_config"})");
  BOOST_TEST(second.calls[1].tool == "mcp__github__get_issue");  // an MCP tool's input is not checked: any keys
  BOOST_TEST(second.calls[1].input.dump() ==
             R"({"command":"true","timeout":30,"ratio":0.5,"quoted_number":"30","flag":true,"nothing":null,)"
             R"("empty":null,"list":[1,"two","3"]})");
  BOOST_TEST(second.calls[1].input.find("timeout")->is_integer());
  BOOST_TEST(task->script[2].say == "Done.");
  BOOST_TEST(task->script[2].calls.empty());
}

BOOST_AUTO_TEST_CASE(a_minimal_task_takes_the_defaults) {
  Expected<Task> task = load_task("prompt: Fix the bug.\n", "tasks/fix-bug.yaml");
  BOOST_REQUIRE_MESSAGE(task.has_value(), (task ? std::string() : task.error().message));
  BOOST_TEST(task->id == "fix-bug");
  BOOST_TEST(task->source == "tasks/fix-bug.yaml");
  BOOST_TEST(task->prompt == "Fix the bug.");
  BOOST_TEST(task->workspace.repo.empty());
  BOOST_TEST(task->workspace.ref == "HEAD");
  BOOST_TEST(!task->workspace.isolation.has_value());
  BOOST_TEST(task->model == "script");
  BOOST_TEST(task->limits.turns == 30);
  BOOST_TEST(!task->limits.tokens.has_value());
  BOOST_TEST(!task->tools.has_value());
  BOOST_TEST(!task->policy.has_value());
  BOOST_TEST(task->diagnostics);
  BOOST_TEST(task->repeat == 1);
  BOOST_TEST(task->checks.empty());
  BOOST_TEST(task->script.empty());
}

BOOST_AUTO_TEST_CASE(relative_paths_resolve_against_the_task_files_folder) {
  TempFolder folder;
  std::filesystem::path file =
      folder.write("ci/tasks/t.yaml", "prompt: p\nworkspace: {repo: .}\npolicy: ../../policies/./strict.yaml\n");
  Expected<Task> task = load_task_file(file);
  BOOST_REQUIRE_MESSAGE(task.has_value(), (task ? std::string() : task.error().message));
  BOOST_TEST(task->workspace.repo == folder.path() / "ci" / "tasks");
  BOOST_TEST(task->policy.value() == folder.path() / "policies" / "strict.yaml");

  Expected<Task> absolute = load_task("prompt: p\nworkspace: {repo: /srv/repo/}\npolicy: /etc/p.yaml\n", "t.yaml");
  BOOST_REQUIRE(absolute.has_value());
  BOOST_TEST(absolute->workspace.repo == "/srv/repo");
  BOOST_TEST(absolute->policy.value() == "/etc/p.yaml");

  Expected<Task> relative_source = load_task("prompt: p\nworkspace: {repo: ../repo}\n", "tasks/t.yaml");
  BOOST_REQUIRE(relative_source.has_value());
  BOOST_TEST(relative_source->workspace.repo == std::filesystem::current_path() / "repo");
}

BOOST_AUTO_TEST_CASE(unknown_key_is_an_error_with_a_suggestion) {
  BOOST_TEST(error_of("prompt: p\nmodle: script\n") == "tasks/x.yaml:2:1: unknown key 'modle' (did you mean 'model'?)");
  BOOST_TEST(error_of("prompt: p\nlimits:\n  turn: 3\n") ==
             "tasks/x.yaml:3:3: unknown key 'turn' in 'limits' (did you mean 'turns'?)");
}

BOOST_AUTO_TEST_CASE(a_misspelt_required_key_gets_a_suggestion_and_no_second_message) {
  BOOST_TEST(error_of("id: t\npromt: hello\n") == "tasks/x.yaml:2:1: unknown key 'promt' (did you mean 'prompt'?)");
  BOOST_TEST(error_of("prompt: p\nchecks:\n  - runn: make\n") ==
             "tasks/x.yaml:3:5: unknown key 'runn' in 'checks[0]' (did you mean 'run'?)");
  BOOST_TEST(error_of("prompt: p\nscript:\n  - call: {tol: grep}\n") ==
             "tasks/x.yaml:3:12: unknown key 'tol' in 'script[0].call' (did you mean 'tool'?)");
}

BOOST_AUTO_TEST_CASE(a_missing_prompt_is_reported_beside_other_problems) {
  BOOST_TEST(
      error_of("mcp_servers: {}\nfrobnicate: 1\n") ==
      "tasks/x.yaml:1:1: missing required key 'prompt'\n"
      "tasks/x.yaml:2:1: unknown key 'frobnicate' (known keys: id, description, prompt, workspace, setup, checks, "
      "repeat, script, commit, model, replay, limits, tools, policy, diagnostics, mcp_servers, answers, sandbox, secrets, "
      "web_search, "
      "env, system_prompt, instructions, instruction_files, context, check_feedback, output_schema)");
}

// Found by the task_yaml fuzzer: a key spanning lines (a plain scalar continued on the next line)
// was quoted as it was, so its problem took two lines and the second named no file.
BOOST_AUTO_TEST_CASE(a_problem_quoting_a_key_that_spans_lines_stays_on_one_line) {
  std::string error = error_of("prompt: x\nfirst part\n\n second part\n");  // the blank line folds to a newline
  BOOST_TEST_INFO(error);
  BOOST_TEST(error.find("unknown key 'first part\\nsecond part'") != std::string::npos);
  for (const std::string& line : split(error, '\n')) BOOST_TEST(line.starts_with("tasks/x.yaml:"), line);
}

BOOST_AUTO_TEST_CASE(unknown_key_far_from_any_lists_the_known_keys) {
  BOOST_TEST(
      error_of("prompt: p\nfrobnicate: 1\n") ==
      "tasks/x.yaml:2:1: unknown key 'frobnicate' (known keys: id, description, prompt, workspace, setup, checks, "
      "repeat, script, commit, model, replay, limits, tools, policy, diagnostics, mcp_servers, answers, sandbox, secrets, "
      "web_search, "
      "env, system_prompt, instructions, instruction_files, context, check_feedback, output_schema)");
}

BOOST_AUTO_TEST_CASE(wrong_types_are_errors_naming_the_value) {
  BOOST_TEST(error_of("prompt: p\nlimits:\n  turns: abc\n") ==
             "tasks/x.yaml:3:10: 'limits.turns' must be a positive integer, got 'abc'");
  BOOST_TEST(error_of("prompt: p\nsetup: make\n") == "tasks/x.yaml:2:8: 'setup' must be a list, got 'make'");
  BOOST_TEST(error_of("prompt: p\nrepeat: \"3\"\n") ==
             "tasks/x.yaml:2:9: 'repeat' must be a positive integer, got the string '3'");
  BOOST_TEST(error_of("prompt: [a, b]\n") == "tasks/x.yaml:1:9: 'prompt' must be a string, got a list");
  BOOST_TEST(error_of("prompt: p\nlimits: {cost_usd: -1}\n") ==
             "tasks/x.yaml:2:20: 'limits.cost_usd' must be a positive number, got '-1'");
  BOOST_TEST(error_of("prompt: p\ndiagnostics: maybe\n") ==
             "tasks/x.yaml:2:14: 'diagnostics' must be on, off, true or false, got 'maybe'");
  BOOST_TEST(error_of("prompt: p\nworkspace: here\n") == "tasks/x.yaml:2:12: 'workspace' must be a map, got 'here'");
}

BOOST_AUTO_TEST_CASE(duplicate_key_is_an_error_naming_both_positions) {
  BOOST_TEST(error_of("prompt: a\nmodel: script\nprompt: b\n") ==
             "tasks/x.yaml:3:1: duplicate key 'prompt' (first at 1:1)");
}

BOOST_AUTO_TEST_CASE(bad_duration_is_an_error_with_the_accepted_forms) {
  BOOST_TEST(error_of("id: t\ndescription: d\nprompt: p\nmodel: script\nrepeat: 1\nlimits:\n  time: 15 minutes\n") ==
             "tasks/x.yaml:7:9: 'limits.time' is not a duration: '15 minutes' (use 90s, 15m or 1h)");
  BOOST_TEST(error_of("prompt: p\nlimits: {tool_timeout: 0m}\n") ==
             "tasks/x.yaml:2:24: 'limits.tool_timeout' must be longer than 0, got '0m'");
}

BOOST_AUTO_TEST_CASE(missing_or_empty_prompt_is_an_error) {
  BOOST_TEST(error_of("id: t\nmodel: script\n") == "tasks/x.yaml:1:1: missing required key 'prompt'");
  BOOST_TEST(error_of("id: t\nprompt:\n") == "tasks/x.yaml:2:1: 'prompt' must not be empty");
  BOOST_TEST(error_of("id: t\nprompt: \"  \"\n") == "tasks/x.yaml:2:9: 'prompt' must not be empty");
  BOOST_TEST(error_of("") == "tasks/x.yaml:1:1: the file must hold a map of keys, got nothing");
}

BOOST_AUTO_TEST_CASE(bad_isolation_value_is_an_error_with_a_suggestion) {
  BOOST_TEST(error_of("prompt: p\nworkspace:\n  isolation: inplace\n") ==
             "tasks/x.yaml:3:14: 'workspace.isolation' must be worktree, copy or in-place, got 'inplace' "
             "(did you mean 'in-place'?)");
}

BOOST_AUTO_TEST_CASE(yaml_syntax_error_is_reported_at_its_position_alone) {
  BOOST_TEST(error_of("prompt: hi\nid: t\nx: b: c\n") == "tasks/x.yaml:3:5: YAML syntax error: illegal map value");
  BOOST_TEST(error_of("prompt: hi\nmodel: \"script\n") ==
             "tasks/x.yaml:2:8: YAML syntax error: unterminated quoted string (no closing \")");
  BOOST_TEST(error_of("prompt: hi\n---\nprompt: again\n") ==
             "tasks/x.yaml:2:1: a second YAML document starts here; the file must hold one");
}

BOOST_AUTO_TEST_CASE(tools_may_name_mcp_tools_by_pattern_or_by_server_but_built_in_tools_only_exactly) {
  auto task = load_task("prompt: p\ntools: [read_file, \"mcp__everything__get-*\", mcp__github]\n", "tasks/x.yaml");
  BOOST_REQUIRE_MESSAGE(task.has_value(), (task ? std::string() : task.error().message));
  BOOST_TEST((task->tools.value() == std::vector<std::string>{"read_file", "mcp__everything__get-*", "mcp__github"}));
  BOOST_TEST(error_of("prompt: p\ntools: [\"read_*\"]\n") ==
             "tasks/x.yaml:2:9: tool name patterns such as 'read_*' are for MCP tools only (mcp__SERVER__*)");
}

BOOST_AUTO_TEST_CASE(a_policy_file_given_as_a_task_says_so_and_how_to_pass_it) {
  BOOST_TEST(error_of("version: 1\nunmatched: deny\nrules:\n  - id: r\n    allow: read_file\n") ==
             "tasks/x.yaml:1:1: this is a policy file (it has 'rules:'), not a task: pass it with --policy "
             "tasks/x.yaml, or name it in a task's 'policy:'");
}

BOOST_AUTO_TEST_CASE(every_problem_in_a_file_is_reported_in_file_order) {
  BOOST_TEST(error_of("id: bad id!\n"
                      "prompt: p\n"
                      "limits:\n"
                      "  turns: 0\n"
                      "  time: 15 minutes\n"
                      "tools: [gerp, bash, mcp__x__]\n"
                      "mcp_servers: {}\n"
                      "prompt: again\n") ==
             "tasks/x.yaml:1:5: 'id' must be letters, digits, '.', '_' or '-', got 'bad id!'\n"
             "tasks/x.yaml:4:10: 'limits.turns' must be a positive integer, got '0'\n"
             "tasks/x.yaml:5:9: 'limits.time' is not a duration: '15 minutes' (use 90s, 15m or 1h)\n"
             "tasks/x.yaml:6:9: unknown tool 'gerp' (did you mean 'grep'?)\n"
             "tasks/x.yaml:6:21: 'mcp__x__' is not a tool name: MCP tools are written mcp__SERVER__TOOL\n"
             "tasks/x.yaml:8:1: duplicate key 'prompt' (first at 2:1)");
}

BOOST_AUTO_TEST_CASE(mcp_servers_are_read_into_the_task_and_their_problems_reported_with_the_rest) {
  auto task =
      load_task("prompt: p\nmcp_servers:\n  fs: {command: npx, args: [server, .], required: true}\n", "tasks/x.yaml");
  BOOST_REQUIRE(task.has_value());
  BOOST_REQUIRE(task->mcp_servers.size() == 1u);
  BOOST_TEST(task->mcp_servers[0].name == "fs");
  BOOST_TEST(task->mcp_servers[0].command == (std::vector<std::string>{"npx", "server", "."}));
  BOOST_TEST(task->mcp_servers[0].required);
  BOOST_TEST(error_of("prompt: p\nmcp_servers:\n  my__fs: {command: npx}\nrepeat: 0\n") ==
             "tasks/x.yaml:3:3: the MCP server name 'my__fs' starts or ends with '_' or holds '__', so "
             "mcp__SERVER__TOOL names with it could be read as another server's\n"
             "tasks/x.yaml:4:9: 'repeat' must be a positive integer, got '0'");
}

BOOST_AUTO_TEST_CASE(checks_accept_run_or_no_new_diagnostics) {
  BOOST_TEST(error_of("prompt: p\nchecks:\n  - run: make test\n  - no_new_diagnostics: yes\n  - {}\n  - run:\n"
                      "  - {run: make, no_new_diagnostics: true}\n") ==
             "tasks/x.yaml:4:25: 'checks[1].no_new_diagnostics' must be true, false or project, got 'yes'\n"
             "tasks/x.yaml:5:5: 'checks[2]' needs 'run' (the command that decides whether the attempt passed) or "
             "'no_new_diagnostics: true' or 'no_new_diagnostics: project'\n"
             "tasks/x.yaml:6:5: 'checks[3].run' must not be empty\n"
             "tasks/x.yaml:7:5: 'checks[4]' has both 'run' and 'no_new_diagnostics'; make them two checks");
  BOOST_TEST(
      error_of("prompt: p\ndiagnostics: off\nchecks:\n  - no_new_diagnostics: true\n") ==
      "tasks/x.yaml:4:25: 'checks[0].no_new_diagnostics' needs diagnostics, but this task sets 'diagnostics: off'");
  BOOST_TEST(error_of("prompt: p\nchecks: [make test]\n") ==
             "tasks/x.yaml:2:10: 'checks[0]' must be a map, got 'make test'");
}

BOOST_AUTO_TEST_CASE(a_project_gate_takes_a_checker_by_name_or_a_command_of_its_own) {
  Expected<Task> task = load_task(
      "prompt: p\ndiagnostics: off\nchecks:\n  - no_new_diagnostics: project\n"
      "  - {no_new_diagnostics: project, checker: go vet}\n  - {no_new_diagnostics: project, command: \"mypy .\"}\n",
      "tasks/x.yaml");
  BOOST_REQUIRE_MESSAGE(task.has_value(), (task ? std::string() : task.error().message));
  BOOST_REQUIRE(task->checks.size() == 3u);
  BOOST_REQUIRE(task->checks[0].project.has_value());
  BOOST_TEST(!task->checks[0].no_new_diagnostics);
  BOOST_TEST(task->checks[0].project->checker.empty());
  BOOST_TEST(task->checks[1].project->checker == "go vet");
  BOOST_TEST(task->checks[2].project->command == "mypy .");
  BOOST_TEST(error_of("prompt: p\nchecks:\n  - {no_new_diagnostics: project, checker: pyrite}\n"
                      "  - {no_new_diagnostics: project, checker: tsc, command: x}\n"
                      "  - {no_new_diagnostics: true, checker: tsc}\n  - {run: make, command: x}\n"
                      "  - no_new_diagnostics: projet\n  - {no_new_diagnostics: project, command: \"\"}\n") ==
             "tasks/x.yaml:3:44: 'checks[0].checker' must be pyright, ruff, tsc, eslint, go vet, cargo check, "
             "shellcheck or compiler, got 'pyrite'\n"
             "tasks/x.yaml:4:58: 'checks[1]' has both 'checker' and 'command'; give one\n"
             "tasks/x.yaml:5:41: 'checks[2].checker' is for 'no_new_diagnostics: project'\n"
             "tasks/x.yaml:6:26: 'checks[3].command' is for 'no_new_diagnostics: project'\n"
             "tasks/x.yaml:7:25: 'checks[4].no_new_diagnostics' must be true, false or project, got 'projet' (did you "
             "mean 'project'?)\n"
             "tasks/x.yaml:8:44: 'checks[5].command' must not be empty");
}

BOOST_AUTO_TEST_CASE(a_run_check_may_run_during_edits_too) {
  Expected<Task> task =
      load_task("prompt: p\nchecks:\n  - {run: make lint, during: edit}\n  - {run: make test, during: finish}\n"
                "  - run: make all\n",
                "tasks/x.yaml");
  BOOST_REQUIRE(task.has_value());
  BOOST_REQUIRE(task->checks.size() == 3u);
  BOOST_TEST(task->checks[0].after_edits);
  BOOST_TEST(!task->checks[1].after_edits);
  BOOST_TEST(!task->checks[2].after_edits);
  BOOST_TEST(error_of("prompt: p\nchecks:\n  - {run: make lint, during: edits}\n"
                      "  - {no_new_diagnostics: true, during: edit}\n") ==
             "tasks/x.yaml:3:30: 'checks[0].during' must be finish or edit, got 'edits' (did you mean 'edit'?)\n"
             "tasks/x.yaml:4:40: 'checks[1].during' is for 'run' checks; no_new_diagnostics already judges each edit");
}

BOOST_AUTO_TEST_CASE(script_turns_are_checked) {
  BOOST_TEST(error_of("prompt: p\nscript:\n"
                      "  - sey: hi\n"
                      "  - call: {tool: grep, input: [a]}\n"
                      "  - calls: [{input: {}}]\n"
                      "  - {}\n") ==
             "tasks/x.yaml:3:5: unknown key 'sey' in 'script[0]' (did you mean 'say'?)\n"
             "tasks/x.yaml:4:31: 'script[1].call.input' must be a map, got a list\n"
             "tasks/x.yaml:5:13: 'script[2].calls[0]' needs 'tool': the name of the tool to call\n"
             "tasks/x.yaml:6:5: 'script[3]' needs 'say', 'call' or 'calls'");
}

BOOST_AUTO_TEST_CASE(ids_are_checked_and_default_to_the_file_stem) {
  BOOST_TEST(error_of("id: \"a/b\"\nprompt: p\n") ==
             "tasks/x.yaml:1:5: 'id' must be letters, digits, '.', '_' or '-', got 'a/b'");
  Expected<Task> task = load_task("prompt: p\n", "tasks/my task.yaml");
  BOOST_REQUIRE(!task.has_value());
  BOOST_TEST(task.error().message ==
             "tasks/my task.yaml:1:1: the file name 'my task' is not a valid task id (letters, digits, '.', '_' or "
             "'-'): set 'id'");
}

BOOST_AUTO_TEST_CASE(a_missing_file_is_an_error_naming_it) {
  TempFolder folder;
  Expected<Task> task = load_task_file(folder.path() / "nope.yaml");
  BOOST_REQUIRE(!task.has_value());
  BOOST_TEST(task.error().message ==
             (folder.path() / "nope.yaml").string() + ": cannot read: No such file or directory");
}

BOOST_AUTO_TEST_CASE(no_new_diagnostics_is_a_check_kind) {
  Expected<Task> task =
      load_task("prompt: p\nchecks:\n  - run: make test\n  - no_new_diagnostics: true\n  - no_new_diagnostics: false\n",
                "tasks/x.yaml");
  BOOST_REQUIRE(task.has_value());
  BOOST_REQUIRE(task->checks.size() == 2u);
  BOOST_TEST(task->checks[0].run == "make test");
  BOOST_TEST(!task->checks[0].no_new_diagnostics);
  BOOST_TEST(task->checks[1].no_new_diagnostics);
  BOOST_TEST(task->diagnostics);  // on by default
}

BOOST_AUTO_TEST_SUITE_END()
