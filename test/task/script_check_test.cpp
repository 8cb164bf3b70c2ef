#include "task/task_loader.h"

#include <boost/test/unit_test.hpp>

#include <string>

using namespace agent_run;

namespace {

/// The error message of loading `text` as tasks/x.yaml; empty when it loads.
std::string error_of(const std::string& text) {
  Expected<Task> task = load_task(text, "tasks/x.yaml");
  return task ? std::string() : task.error().message;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(script_check)

BOOST_AUTO_TEST_CASE(a_misspelt_tool_is_refused_at_its_name_with_a_did_you_mean) {
  BOOST_TEST(error_of("prompt: p\n"
                      "script:\n"
                      "  - call: {tool: raed_file, input: {path: a.py}}\n") ==
             "tasks/x.yaml:3:18: 'script[0].call.tool': unknown tool 'raed_file' (did you mean 'read_file'?)");
}

BOOST_AUTO_TEST_CASE(a_misspelt_input_key_is_refused_at_the_key_once) {
  // `pth` is taken for `path`: the missing `path` is not said a second time.
  BOOST_TEST(error_of("prompt: p\n"
                      "script:\n"
                      "  - call:\n"
                      "      tool: read_file\n"
                      "      input: {pth: a.py}\n") ==
             "tasks/x.yaml:5:15: 'script[0].call': read_file has no input 'pth' (did you mean 'path'?)");
}

BOOST_AUTO_TEST_CASE(a_missing_required_key_is_refused_at_the_input) {
  BOOST_TEST(error_of("prompt: p\n"
                      "script:\n"
                      "  - calls:\n"
                      "      - {tool: edit_file, input: {path: a.py, new: x}}\n") ==
             "tasks/x.yaml:4:34: 'script[0].calls[0]': edit_file needs the input 'old'");
  BOOST_TEST(error_of("prompt: p\nscript:\n  - call: {tool: bash}\n") ==
             "tasks/x.yaml:3:11: 'script[0].call': bash needs the input 'command'");
}

BOOST_AUTO_TEST_CASE(a_value_of_the_wrong_type_is_refused_at_the_value) {
  BOOST_TEST(error_of("prompt: p\n"
                      "script:\n"
                      "  - call: {tool: edit_file, input: {path: a.py, old: 42, new: x}}\n") ==
             "tasks/x.yaml:3:54: 'script[0].call': edit_file's input 'old' must be a string, got 42 (quote it)");
  BOOST_TEST(error_of("prompt: p\n"
                      "script:\n"
                      "  - call: {tool: read_file, input: {path: a.py, offset: ten}}\n") ==
             "tasks/x.yaml:3:57: 'script[0].call': read_file's input 'offset' must be an integer, got \"ten\"");
}

BOOST_AUTO_TEST_CASE(a_nested_value_outside_its_enum_is_refused) {
  std::string error = error_of("prompt: p\n"
                               "script:\n"
                               "  - call: {tool: todo_write, input: {todos: [{content: a, status: doing}]}}\n");
  BOOST_TEST(error.starts_with("tasks/x.yaml:3:45: 'script[0].call': todo_write's input 'todos' does not fit its "
                               "schema: at /"),
             error);
  BOOST_TEST(error.find("/0/status") != std::string::npos, error);
}

BOOST_AUTO_TEST_CASE(a_tool_the_task_leaves_out_is_refused) {
  BOOST_TEST(error_of("prompt: p\n"
                      "tools: [read_file]\n"
                      "script:\n"
                      "  - call: {tool: bash, input: {command: ls}}\n") ==
             "tasks/x.yaml:4:18: 'script[0].call' calls bash, which the task's 'tools:' leaves out (add it there, "
             "or the call is refused at run time)");
  BOOST_TEST(error_of("prompt: p\n"
                      "script:\n"
                      "  - call: {tool: web_fetch, input: {url: 'https://example.com'}}\n") ==
             "tasks/x.yaml:3:18: 'script[0].call' calls web_fetch, which is off unless the task's 'tools:' lists it");
}

BOOST_AUTO_TEST_CASE(every_problem_of_every_call_is_said_at_once) {
  std::string error = error_of("prompt: p\n"
                               "script:\n"
                               "  - call: {tool: raed_file, input: {path: a.py}}\n"
                               "  - call: {tool: read_file, input: {pth: a.py}}\n"
                               "limits: {turns: none}\n");
  BOOST_TEST(error.find("tasks/x.yaml:3:18: 'script[0].call.tool': unknown tool") != std::string::npos, error);
  BOOST_TEST(error.find("tasks/x.yaml:4:37: 'script[1].call': read_file has no input 'pth'") != std::string::npos,
             error);
  BOOST_TEST(error.find("tasks/x.yaml:5:17:") != std::string::npos, error);
}

BOOST_AUTO_TEST_CASE(an_mcp_tool_needs_its_server_and_its_input_is_said_to_be_unchecked) {
  BOOST_TEST(error_of("prompt: p\n"
                      "mcp_servers:\n"
                      "  github: {command: github-mcp}\n"
                      "script:\n"
                      "  - call: {tool: mcp__githib__get_issue, input: {number: 1}}\n") ==
             "tasks/x.yaml:5:18: 'script[0].call' calls mcp__githib__get_issue, but the task has no MCP server "
             "'githib' in 'mcp_servers:' (did you mean 'github'?)");
  Expected<Task> task = load_task("prompt: p\n"
                                  "mcp_servers:\n"
                                  "  github: {command: github-mcp}\n"
                                  "script:\n"
                                  "  - call: {tool: mcp__github__get_issue, input: {anything: 1}}\n",
                                  "tasks/x.yaml");
  BOOST_REQUIRE(task.has_value());
  BOOST_REQUIRE(task->warnings.size() == 1u);
  BOOST_TEST(task->warnings[0] ==
             "tasks/x.yaml:5:18: warning: the input of 'script[0].call' (mcp__github__get_issue) is not checked: an "
             "MCP tool's schema is known only once its server runs (agent-run validate --mcp starts it and checks it)");
}

BOOST_AUTO_TEST_CASE(a_task_s_unchecked_mcp_calls_get_one_warning_at_the_first) {
  Expected<Task> task = load_task("prompt: p\n"
                                  "mcp_servers:\n"
                                  "  github: {command: github-mcp}\n"
                                  "script:\n"
                                  "  - call: {tool: mcp__github__get_issue, input: {number: 1}}\n"
                                  "  - call: {tool: mcp__github__get_issue, input: {number: 2}}\n"
                                  "  - calls:\n"
                                  "      - {tool: mcp__github__list_issues, input: {}}\n",
                                  "tasks/x.yaml");
  BOOST_REQUIRE(task.has_value());
  BOOST_REQUIRE(task->warnings.size() == 1u);
  BOOST_TEST(task->warnings[0] ==
             "tasks/x.yaml:5:18: warning: the input of 'script[0].call' (mcp__github__get_issue) and 2 more scripted "
             "MCP calls are not checked: an MCP tool's schema is known only once its server runs (agent-run validate "
             "--mcp starts it and checks it)");
}

BOOST_AUTO_TEST_CASE(calls_that_fit_load) {
  Expected<Task> task = load_task("prompt: p\n"
                                  "script:\n"
                                  "  - call: {tool: read_file, input: {path: a.py, offset: 2, limit: 10}}\n"
                                  "  - call: {tool: edit_file, input: {path: a.py, old: '42', new: x, "
                                  "replace_all: true}}\n"
                                  "  - call: {tool: todo_write, input: {todos: [{content: a, status: pending}]}}\n",
                                  "tasks/x.yaml");
  BOOST_TEST(task.has_value(), (task ? "" : task.error().message));
}

BOOST_AUTO_TEST_SUITE_END()
