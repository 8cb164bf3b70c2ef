#include "base/json.h"
#include "support/fixtures.h"
#include "support/loopback_listener.h"
#include "support/process_probes.h"
#include "support/sandbox_support.h"

#include <boost/test/unit_test.hpp>

#include <string>

using namespace agent_run;
using namespace agent_run::test;

namespace {

const char* k_policy = R"(version: 1
unmatched: deny
rules:
  - id: shell
    allow: bash
    argv_prefix: [[sh, echo, sleep]]
)";

/// A script that leaves a process behind outside its process group and writes its pid to `pid_file`
/// (the policy cannot allow `&` or `$!` in a command line, but it can allow running a script).
std::string escape_script(const std::string& pid_file) {
  return "setsid sleep 1000 >/dev/null 2>&1 &\np=$!\n"
         "until [ \"$(cat /proc/$p/comm 2>/dev/null)\" = sleep ]; do sleep 0.01; done\n"  // it has left the group
         "echo $p > " +
         pid_file + "\n";
}

/// A task that plans, starts a server in the background, leaves an escaped process behind, asks two
/// questions (one answered by a rule, one by the fallback `fail`), and would go on if not stopped.
/// Unsandboxed (an escape inside a sandbox dies with its command and is never recorded; sandbox_test
/// has that case).
std::string session_task() {
  return R"(prompt: Set up the service.
policy: ../policy.yaml
sandbox: off
answers:
  - question: "(?i)which database"
    choose: sqlite
  - otherwise: fail
script:
  - call: {tool: todo_write, input: {todos: [{content: Start the server, status: in_progress}, {content: Ask about the database, status: pending}]}}
  - calls:
      - {tool: bash, input: {command: "echo serving; sleep 1000", background: true}}
      - {tool: bash, input: {command: "sh escape.sh"}}
  - call: {tool: ask_user, input: {question: "Which database should I use?", options: [postgres, SQLite]}}
  - call: {tool: ask_user, input: {question: "Deploy to production now?", options: ["yes", "no"]}}
  - say: never reached
)";
}

/// A policy that allows `sh SCRIPT` and, when `sandbox` is not empty, has that `sandbox:` line.
std::string policy_with_sandbox(const std::string& sandbox) {
  return std::string(k_policy) + (sandbox.empty() ? "" : "sandbox: " + sandbox + "\n");
}

/// A task (with no sandbox: of its own) whose one command connects to 127.0.0.1:`port`.
std::string connecting_task() {
  return "prompt: p\npolicy: ../policy.yaml\nscript:\n  - call: {tool: bash, input: {command: sh connect.sh}}\n";
}

std::string connect_script(int port) {
  return "python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", " + std::to_string(port) +
         "), timeout=3); print(\"connected\")'\n";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(session_tools_binary)

BOOST_AUTO_TEST_CASE(questions_plans_and_processes_are_reported_and_everything_is_killed_at_the_end) {
  TempFolder repo;
  TempFolder out;
  TempFolder scratch;
  std::string pid_file = (scratch.path() / "escaped.pid").string();
  make_git_repository(repo.path(), {{"README", "service\n"},
                                    {"policy.yaml", k_policy},
                                    {"escape.sh", escape_script(pid_file)},
                                    {"tasks/service.yaml", session_task()}});
  CommandResult result = run_agent_run({"tasks/service.yaml", "--out", out.path().string()}, repo.path());
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 1);  // failed: the unanswered question ends the attempt

  auto report = parse_json(out.read("report.json"));
  BOOST_REQUIRE(report.has_value());
  const Json& attempt = report->find("attempts")->as_array().at(0);
  BOOST_TEST(attempt.get_string("outcome") == "failed");
  BOOST_TEST(attempt.get_string("outcome_type") == "ask_user.unanswered");
  BOOST_TEST(
      attempt.get_string("message") ==
      "the agent asked \"Deploy to production now?\" and no rule of the task's answers: matched; its fallback is fail");
  BOOST_TEST(attempt.find("turns")->as_int() == 4);

  const Json::Array& questions = attempt.find("questions")->as_array();
  BOOST_REQUIRE_EQUAL(questions.size(), 2u);
  BOOST_TEST(questions[0].get_string("answer") == "SQLite");
  BOOST_TEST(questions[0].get_string("answered_by") == "rule");
  BOOST_TEST(questions[0].find("rule_index")->as_int() == 0);
  BOOST_TEST(questions[1].get_string("answered_by") == "fail");

  const Json::Array& todos = attempt.find("todos")->as_array();
  BOOST_REQUIRE_EQUAL(todos.size(), 2u);
  BOOST_TEST(todos[0].get_string("status") == "in_progress");

  const Json::Array& background = attempt.find("background_processes")->as_array();
  BOOST_REQUIRE_EQUAL(background.size(), 1u);
  BOOST_TEST(background[0].get_string("handle") == "bg1");
  BOOST_TEST(background[0].get_string("ended_by") == "attempt_end");
  BOOST_TEST(background[0].find("signal")->as_int() == 15);
  BOOST_TEST(!is_alive(static_cast<pid_t>(background[0].find("pid")->as_int())));

  pid_t escaped = static_cast<pid_t>(std::stol(scratch.read("escaped.pid")));
  BOOST_TEST(!is_alive(escaped));
  bool reported = false;
  for (const Json& process : attempt.find("escaped_processes")->as_array()) {
    reported |= process.find("pid")->as_int() == escaped && process.get_string("command") == "sleep 1000";
  }
  BOOST_TEST(reported);
  BOOST_TEST(attempt.find("sandboxed")->as_bool() == false);

  check_report_folder(out.path());
}

BOOST_AUTO_TEST_CASE(a_sandboxed_task_without_bubblewrap_is_an_error_never_unsandboxed) {
  TempFolder repo;
  TempFolder out;
  TempFolder bin;  // a PATH with git and sh but no bwrap
  for (const char* tool : {"git", "sh"}) {
    run_shell("ln -s \"$(command -v " + std::string(tool) + ")\" " + shell_quote((bin.path() / tool).string()),
              bin.path());
  }
  make_git_repository(repo.path(), {{"policy.yaml", k_policy},
                                    {"tasks/boxed.yaml",
                                     "prompt: p\npolicy: ../policy.yaml\nsandbox: {network: off}\n"
                                     "script:\n  - call: {tool: bash, input: {command: touch ran}}\n"}});
  CommandResult result =
      run_shell("PATH=" + shell_quote(bin.path().string()) + " " + shell_quote(test::agent_run_binary()) +
                    " tasks/boxed.yaml --out " + shell_quote(out.path().string()) + " --keep-workspaces",
                repo.path());
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 3);
  auto report = parse_json(out.read("report.json"));
  BOOST_REQUIRE(report.has_value());
  const Json& attempt = report->find("attempts")->as_array().at(0);
  BOOST_TEST(attempt.get_string("outcome") == "error");
  BOOST_TEST(attempt.get_string("outcome_type") == "sandbox.unavailable");
  BOOST_TEST_INFO(attempt.get_string("message"));
  BOOST_TEST(attempt.get_string("message").find("the sandbox ('sandbox:' at ") != std::string::npos);
  BOOST_TEST(attempt.get_string("message").find("boxed.yaml:") != std::string::npos);
  BOOST_TEST(attempt.get_string("message").find(") cannot start on this machine: cannot run 'bwrap'") !=
             std::string::npos);
  BOOST_TEST(attempt.get_string("message").find("install Debian's 'bubblewrap' package") != std::string::npos);
  BOOST_TEST(attempt.find("tool_calls")->as_array().empty());  // nothing ran
}

BOOST_AUTO_TEST_CASE(the_network_is_cut_by_default_and_by_a_policys_sandbox_and_sandbox_off_restores_it,
                     *boost::unit_test::precondition(test::sandbox_usable)) {
  LoopbackListener listener;
  for (const std::string& sandbox :
       {std::string("off"), std::string(), std::string("{network: off, write: workspace}")}) {
    TempFolder repo;
    TempFolder out;
    make_git_repository(repo.path(), {{"policy.yaml", policy_with_sandbox(sandbox)},
                                      {"connect.sh", connect_script(listener.port())},
                                      {"tasks/connect.yaml", connecting_task()}});
    CommandResult result = run_agent_run({"tasks/connect.yaml", "--out", out.path().string()}, repo.path());
    BOOST_TEST_INFO(result.output);
    BOOST_TEST(result.exit_code == 0);
    const Json attempt = parse_json(out.read("report.json")).value().find("attempts")->as_array().at(0);
    std::string transcript = out.read("attempts/connect/1/transcript.jsonl");
    BOOST_TEST_INFO(transcript);
    BOOST_TEST(attempt.find("tool_calls")->as_array().at(0).get_string("decision") == "allowed");
    if (sandbox == "off") {  // the same command reaches the listener only when the policy turns the sandbox off
      BOOST_TEST(attempt.find("sandboxed")->as_bool() == false);
      BOOST_TEST(attempt.find("sandbox")->get_string("kind") == "none");
      BOOST_TEST(attempt.find("sandbox")->get_string("why_none").find("sandbox: off (") == 0);
      BOOST_TEST(listener.connections() == 1);
      BOOST_TEST(transcript.find("connected") != std::string::npos);
    } else {
      BOOST_TEST(attempt.find("sandboxed")->as_bool() == true);
      BOOST_TEST(attempt.find("sandbox")->get_string("kind") == "bubblewrap");
      const std::string set_by = attempt.find("sandbox")->get_string("set_by");
      BOOST_TEST((sandbox.empty() ? set_by == "default" : set_by.find("policy.yaml:") != std::string::npos), set_by);
      BOOST_TEST(listener.connections() == 1);  // no new connection
      BOOST_TEST(transcript.find("Connection refused") != std::string::npos);
    }
  }
}

BOOST_AUTO_TEST_CASE(a_policys_sandbox_without_bubblewrap_is_an_error_never_unsandboxed) {
  TempFolder repo;
  TempFolder out;
  TempFolder bin;  // a PATH with git and sh but no bwrap
  for (const char* tool : {"git", "sh"}) {
    run_shell("ln -s \"$(command -v " + std::string(tool) + ")\" " + shell_quote((bin.path() / tool).string()),
              bin.path());
  }
  make_git_repository(repo.path(), {{"policy.yaml", policy_with_sandbox("{network: off}")},
                                    {"tasks/boxed.yaml",
                                     "prompt: p\npolicy: ../policy.yaml\n"
                                     "script:\n  - call: {tool: bash, input: {command: touch ran}}\n"}});
  CommandResult result = run_shell("PATH=" + shell_quote(bin.path().string()) + " " + shell_quote(test::agent_run_binary()) +
                                       " tasks/boxed.yaml --out " + shell_quote(out.path().string()),
                                   repo.path());
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 3);
  auto report = parse_json(out.read("report.json"));
  BOOST_REQUIRE(report.has_value());
  const Json& attempt = report->find("attempts")->as_array().at(0);
  BOOST_TEST(attempt.get_string("outcome") == "error");
  BOOST_TEST(attempt.get_string("outcome_type") == "sandbox.unavailable");
  BOOST_TEST_INFO(attempt.get_string("message"));
  BOOST_TEST(attempt.get_string("message").find("the sandbox ('sandbox:' at ") != std::string::npos);
  BOOST_TEST(attempt.get_string("message").find("policy.yaml:") != std::string::npos);
  BOOST_TEST(attempt.get_string("message").find(") cannot start on this machine: cannot run 'bwrap'") !=
             std::string::npos);
  BOOST_TEST(attempt.find("tool_calls")->as_array().empty());  // nothing ran
}

BOOST_AUTO_TEST_SUITE_END()
