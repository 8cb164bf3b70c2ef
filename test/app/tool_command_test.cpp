#include "base/files.h"
#include "base/json.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;
using namespace agent_run::test;

namespace {

/// Runs `agent-run tool` in `workspace` with `calls` (one JSON object a line) on its standard input.
/// Its first line on stderr says which sandbox the calls run in (bubblewrap, the default) or warns
/// that there is none (--sandbox off): checked here and left out of the output the cases compare.
CommandResult run_tool(const TempFolder& workspace, const std::string& calls, const std::string& options = "",
                       const std::string& environment = "") {
  TempFolder input;
  input.write("calls.jsonl", calls);
  CommandResult result = run_shell(environment + " " + shell_quote(test::agent_run_binary()) + " tool --workspace " +
                                       shell_quote(workspace.path().string()) + " " + options + " < " +
                                       shell_quote((input.path() / "calls.jsonl").string()) + " 2>&1",
                                   workspace.path());
  const bool off = options.find("--sandbox off") != std::string::npos;
  const std::string first = off ? "agent-run tool: warning: the sandbox is off for 1 attempt (--sandbox off)"
                                : "agent-run tool: sandbox: bubblewrap, network off, writes: workspace, ";
  if (result.output.starts_with(first)) {
    result.output.erase(0, result.output.find('\n') + 1);
  } else {
    BOOST_TEST_INFO(result.output);
    BOOST_TEST(result.exit_code == 2);  // only a bad setting, which stops before the session opens, says nothing
  }
  return result;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(tool_command)

BOOST_AUTO_TEST_CASE(runs_calls_in_one_context_so_an_edit_after_a_read_works) {
  TempFolder workspace;
  workspace.write("app.py", "def parse_config():\n    pass\n");
  workspace.write("policy.yaml", "version: 1\nrules:\n  - id: edits\n    allow: [edit_file]\n");
  CommandResult result = run_tool(workspace,
                                  "{\"tool\": \"read_file\", \"input\": {\"path\": \"app.py\"}}\n"
                                  "\n"
                                  "{\"tool\": \"edit_file\", \"input\": {\"path\": \"app.py\", \"old\": "
                                  "\"parse_config\", \"new\": \"load_config\"}}\n",
                                  "--policy " + shell_quote((workspace.path() / "policy.yaml").string()));
  BOOST_TEST(result.exit_code == 0);
  BOOST_TEST(result.output ==
             "=== 1 read_file app.py (allowed) ===\n     1\tdef parse_config():\n     2\t    pass\n"
             "=== 3 edit_file app.py (allowed by rule 'edits') ===\n"
             "Edited app.py: 1 additions, 1 removals\n--- a/app.py\n+++ b/app.py\n@@ -1,2 +1,2 @@\n"
             "-def parse_config():\n+def load_config():\n     pass\n");
  BOOST_TEST(workspace.read("app.py") == "def load_config():\n    pass\n");
}

BOOST_AUTO_TEST_CASE(applies_the_policy_and_protects_the_policy_file) {
  TempFolder workspace;
  workspace.write("policy.yaml",
                  "version: 1\nrules:\n  - id: writes\n    allow: [write_file]\n  - id: no-shell\n    deny: bash\n    "
                  "message: no shell here\n");
  CommandResult result =
      run_tool(workspace,
               "{\"tool\": \"bash\", \"input\": {\"command\": \"ls\"}}\n"
               "{\"tool\": \"write_file\", \"input\": {\"path\": \"policy.yaml\", \"content\": \"rules: []\"}}\n",
               "--policy " + shell_quote((workspace.path() / "policy.yaml").string()));
  BOOST_TEST(result.exit_code == 1);  // a call ended in an error
  BOOST_TEST(result.output ==
             "=== 1 bash ls (denied by rule 'no-shell') ===\n"
             "Denied by rule 'no-shell': denied by policy: no shell here. The call was not run.\n"
             "=== 2 write_file policy.yaml (denied) ===\n"
             "Denied: 'policy.yaml' is protected: .git/, the policy file and the runner's own files are never "
             "written, whatever the rules say. The call was not run.\n");
}

BOOST_AUTO_TEST_CASE(json_output_has_the_decision_the_result_and_the_edit) {
  TempFolder workspace;
  CommandResult result =
      run_tool(workspace,
               "{\"tool\": \"write_file\", \"input\": {\"path\": \"n.txt\", \"content\": \"a\\n\"}}\n"
               "{\"tool\": \"glob\", \"input\": {\"pattern\": \"*.txt\"}}\n",
               "--json");
  BOOST_TEST(result.exit_code == 1);  // the built-in policy denies write_file
  std::vector<Json> lines;
  for (const std::string& line :
       {result.output.substr(0, result.output.find('\n')), result.output.substr(result.output.find('\n') + 1)}) {
    auto parsed = parse_json(line);
    BOOST_REQUIRE_MESSAGE(parsed.has_value(), line);
    lines.push_back(*parsed);
  }
  BOOST_TEST(lines[0].find("decision")->get_string("verdict") == "denied");
  BOOST_TEST(lines[0].find("decision")->get_string("decided_by") == "unmatched");
  BOOST_TEST(lines[0].find("result")->find("is_error")->as_bool());
  BOOST_TEST(lines[1].get_string("tool") == "glob");
  BOOST_TEST(lines[1].find("decision")->get_string("verdict") == "allowed");
  BOOST_TEST(lines[1].find("result")->get_string("content") == "No files match '*.txt'.\n");
  BOOST_TEST(lines[1].find("edit")->is_null());
}

BOOST_AUTO_TEST_CASE(an_edit_gets_its_diagnostics_as_in_a_run_unless_they_are_off) {
  TempFolder workspace;
  workspace.write("policy.yaml", "version: 1\nrules:\n  - id: writes\n    allow: [write_file]\n");
  const std::string call =
      "{\"tool\": \"write_file\", \"input\": {\"path\": \"run.sh\", \"content\": \"#!/bin/sh\\nif true; then\\n\"}}\n";
  const std::string policy = "--policy " + shell_quote((workspace.path() / "policy.yaml").string());
  CommandResult result = run_tool(workspace, call, policy + " --json");
  BOOST_TEST_INFO(result.output);
  auto line = parse_json(result.output.substr(0, result.output.find('\n')));
  BOOST_REQUIRE(line.has_value());
  const Json* diagnostics = line->find("edit")->find("diagnostics");
  BOOST_REQUIRE(diagnostics != nullptr);
  BOOST_TEST(diagnostics->get_string("status") == "problems");
  BOOST_TEST(line->find("result")->get_string("content").find("diagnostics (") != std::string::npos);

  CommandResult off = run_tool(workspace, call, policy + " --json --no-diagnostics");
  auto off_line = parse_json(off.output.substr(0, off.output.find('\n')));
  BOOST_REQUIRE(off_line.has_value());
  BOOST_TEST(off_line->find("edit")->find("diagnostics")->is_null());
}

BOOST_AUTO_TEST_CASE(the_environment_forces_the_builtin_grep) {
  TempFolder workspace;
  workspace.write("a.txt", "needle\n");
  const std::string call = "{\"tool\": \"grep\", \"input\": {\"pattern\": \"needle\"}}\n";
  BOOST_TEST(run_tool(workspace, call, "", "AGENT_RUN_GREP=builtin").output ==
             "=== 1 grep needle (allowed) ===\na.txt\n1:needle\n");
  BOOST_TEST(run_tool(workspace, call, "--sandbox off", "PATH=/nonexistent AGENT_RUN_GREP=ripgrep").output ==
             "=== 1 grep needle (allowed) ===\ngrep: ripgrep (rg) is not on PATH\n");
  CommandResult wrong = run_tool(workspace, call, "", "AGENT_RUN_GREP=fast");
  BOOST_TEST(wrong.exit_code == 2);
  BOOST_TEST(wrong.output == "agent-run: AGENT_RUN_GREP must be auto, builtin or ripgrep, got 'fast'\n");
}

BOOST_AUTO_TEST_CASE(the_sandbox_turned_off_under_permissive_yaml_is_refused_and_nothing_runs) {
  TempFolder workspace;
  auto permissive = read_file(source_root() / "policies/permissive.yaml");
  BOOST_REQUIRE(permissive.has_value());
  workspace.write("permissive.yaml", *permissive);
  CommandResult result = run_tool(workspace, "{\"tool\": \"bash\", \"input\": {\"command\": \"touch ran\"}}\n",
                                  "--sandbox off --policy " + shell_quote((workspace.path() / "permissive.yaml").string()));
  BOOST_TEST(result.exit_code == 2, result.output);
  BOOST_TEST(result.output.find("'--sandbox off' turns the sandbox off, but its policy") != std::string::npos,
             result.output);
  BOOST_TEST(!std::filesystem::exists(workspace.path() / "ran"));
}

BOOST_AUTO_TEST_CASE(a_bad_line_stops_the_run_with_its_line_number) {
  TempFolder workspace;
  CommandResult result = run_tool(workspace,
                                  "{\"tool\": \"glob\", \"input\": {\"pattern\": \"*\"}}\n{\"tol\": \"glob\"}\n"
                                  "{\"tool\": \"glob\", \"input\": {\"pattern\": \"*\"}}\n");
  BOOST_TEST(result.exit_code == 2);
  BOOST_TEST(result.output ==
             "=== 1 glob * (allowed) ===\nNo files match '*'.\n"
             "<stdin>:2: unknown key 'tol' (did you mean 'tool'?)\nagent-run: calls after this line were not run\n");
  BOOST_TEST(run_tool(workspace, "not json\n").output.rfind("<stdin>:1: ", 0) == 0);
}

BOOST_AUTO_TEST_CASE(the_command_line_is_checked) {
  TempFolder workspace;
  CommandResult no_workspace = run_agent_run({"tool"}, workspace.path());
  BOOST_TEST(no_workspace.exit_code == 2);
  BOOST_TEST(no_workspace.output.rfind(
                 "agent-run: tool needs --workspace DIR (tool calls are read from standard input)\n", 0) == 0);
  CommandResult missing = run_agent_run({"tool", "--workspace", "no/such/dir"}, workspace.path());
  BOOST_TEST(missing.exit_code == 2);
  BOOST_TEST(missing.output.find("--workspace no/such/dir: not a folder") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(with_a_task_its_policy_applies_and_the_task_and_policy_files_are_protected_as_in_a_run) {
  TempFolder workspace;
  workspace.write("policy.yaml", "version: 1\nrules:\n  - id: writes\n    allow: [write_file]\n");
  workspace.write("task.yaml", "prompt: try it\npolicy: policy.yaml\n");
  CommandResult result =
      run_tool(workspace,
               "{\"tool\": \"write_file\", \"input\": {\"path\": \"task.yaml\", \"content\": \"x\"}}\n"
               "{\"tool\": \"write_file\", \"input\": {\"path\": \"./policy.yaml\", \"content\": \"x\"}}\n"
               "{\"tool\": \"write_file\", \"input\": {\"path\": \"notes.txt\", \"content\": \"x\"}}\n",
               "--task " + shell_quote((workspace.path() / "task.yaml").string()));
  BOOST_TEST(result.exit_code == 1);  // two calls were denied
  const std::string protected_text =
      "is protected: .git/, the policy file and the runner's own files are never written, whatever the rules say. "
      "The call was not run.\n";
  BOOST_TEST(result.output ==
             "=== 1 write_file task.yaml (denied) ===\nDenied: 'task.yaml' " + protected_text +
                 "=== 2 write_file ./policy.yaml (denied) ===\nDenied: 'policy.yaml' " + protected_text +
                 "=== 3 write_file notes.txt (allowed by rule 'writes') ===\nCreated notes.txt (1 lines)\n");
  BOOST_TEST(workspace.read("task.yaml") == "prompt: try it\npolicy: policy.yaml\n");
  BOOST_TEST(workspace.read("policy.yaml").find("writes") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(with_a_task_only_its_tools_run_and_policy_overrides_its_policy) {
  TempFolder workspace;
  workspace.write("open.yaml", "version: 1\nunmatched: allow\n");
  workspace.write("task.yaml", "prompt: try it\ntools: [read_file]\n");
  CommandResult result = run_tool(workspace,
                                  "{\"tool\": \"write_file\", \"input\": {\"path\": \"n.txt\", \"content\": \"x\"}}\n"
                                  "{\"tool\": \"read_file\", \"input\": {\"path\": \"open.yaml\", \"limit\": 1}}\n",
                                  "--task " + shell_quote((workspace.path() / "task.yaml").string()) + " --policy " +
                                      shell_quote((workspace.path() / "open.yaml").string()));
  BOOST_TEST(result.output ==
             "=== 1 write_file n.txt (allowed) ===\n"
             "There is no tool named 'write_file' in this task. The call was not run.\n"
             "=== 2 read_file open.yaml (allowed) ===\n     1\tversion: 1\n"
             "[lines 1-1 of 2; call again with offset=2 to read more]\n");
  BOOST_TEST(!std::filesystem::exists(workspace.path() / "n.txt"));
  CommandResult bad = run_tool(workspace, "", "--task " + shell_quote((workspace.path() / "missing.yaml").string()));
  BOOST_TEST(bad.exit_code == 2);
  BOOST_TEST(bad.output.find("missing.yaml") != std::string::npos, bad.output);
}

BOOST_AUTO_TEST_CASE(sigterm_kills_the_running_command_and_exits_143_as_a_run_does) {
  TempFolder workspace;
  workspace.write("open.yaml", "version: 1\nunmatched: allow\n");
  workspace.write("calls.jsonl",
                  "{\"tool\": \"bash\", \"input\": {\"command\": \"touch started; sleep 1000\"}}\n"
                  "{\"tool\": \"read_file\", \"input\": {\"path\": \"open.yaml\"}}\n");
  // Waits for the command's own sign that it runs (the file it touches), then stops agent-run.
  CommandResult result =
      run_shell(shell_quote(test::agent_run_binary()) +
                    " tool --workspace . --policy open.yaml < calls.jsonl & "
                    "pid=$!; while [ ! -e started ]; do sleep 0.05; done; kill -TERM $pid; wait $pid; "
                    "echo \"exit=$?\"",
                workspace.path());
  BOOST_TEST(result.output.starts_with("agent-run tool: sandbox: bubblewrap, "));  // the command ran inside
  BOOST_TEST(result.output.substr(result.output.find('\n') + 1) ==
             "=== 1 bash touch started; sleep 1000 (allowed) ===\n"
             "Terminated\n"  // the sandbox entry's shell: its command got SIGTERM (not an init's ignored one)
             "[interrupted: agent-run was stopped by SIGINT or SIGTERM; its process group was killed]\n"
             "exit=143\n");
}

// A session warms the language servers of the workspace's languages when it opens, as a run's attempt
// does: the first edit finds its server started, not started by it. The session's one call waits for
// the server's own sign that it was started (a file it makes); no edit is made.
BOOST_AUTO_TEST_CASE(a_session_starts_the_workspace_s_language_servers_before_any_edit) {
  TempFolder workspace;
  TempFolder shelf;
  workspace.write("app.py", "print('hello')\n");
  workspace.write("open.yaml", "version: 1\nunmatched: allow\n");
  const std::string started = (shelf.path() / "started").string();
  shelf.write("bin/pyright-langserver", "#!/bin/sh\ntouch " + shell_quote(started) + "\nexec cat >/dev/null\n");
  std::filesystem::permissions(shelf.path() / "bin/pyright-langserver", std::filesystem::perms::owner_all);
  workspace.write("wait.sh",
                  "while [ ! -e " + shell_quote(started) + " ]; do sleep 0.05; done\necho the server started\n");
  const Json call =
      Json::object().set("tool", "bash").set("input", Json::object().set("command", "sh wait.sh").set("timeout", 60));
  CommandResult result = run_tool(workspace, call.dump() + "\n",
                                  "--policy open.yaml --sandbox off",
                                  "PATH=" + shell_quote((shelf.path() / "bin").string()) + ":\"$PATH\"");
  BOOST_TEST(result.output.find("the server started") != std::string::npos, result.output);
  BOOST_TEST(result.exit_code == 0, result.output);
}

BOOST_AUTO_TEST_SUITE_END()
