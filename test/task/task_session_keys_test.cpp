#include "task/task_loader.h"

#include <boost/test/unit_test.hpp>

#include <string>

using namespace agent_run;

namespace {

Task load(const std::string& text) {
  Expected<Task> task = load_task(text, "tasks/x.yaml");
  BOOST_REQUIRE_MESSAGE(task.has_value(), (task ? std::string() : task.error().message));
  return *task;
}

std::string error_of(const std::string& text) {
  Expected<Task> task = load_task(text, "tasks/x.yaml");
  return task ? std::string() : task.error().message;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(task_session_keys)

BOOST_AUTO_TEST_CASE(answers_are_rules_then_a_fallback) {
  Task task = load(
      "prompt: p\n"
      "answers:\n"
      "  - question: \"(?i)which python\"\n"
      "    choose: \"3.11\"\n"
      "  - {question: 'delete', choose: 'No'}\n"
      "  - otherwise: fail\n");
  BOOST_REQUIRE_EQUAL(task.answers.rules.size(), 2u);
  BOOST_TEST(task.answers.rules[0].question == "(?i)which python");
  BOOST_TEST(task.answers.rules[0].choose == "3.11");
  BOOST_TEST(task.answers.rules[1].choose == "No");
  BOOST_TEST(to_string(task.answers.otherwise) == std::string("fail"));
}

BOOST_AUTO_TEST_CASE(without_answers_the_model_is_told_to_decide) {
  Task task = load("prompt: p\n");
  BOOST_TEST(task.answers.rules.empty());
  BOOST_TEST(to_string(task.answers.otherwise) == std::string("deny"));
  BOOST_TEST(to_string(load("prompt: p\nanswers: [{otherwise: first}]\n").answers.otherwise) == std::string("first"));
}

BOOST_AUTO_TEST_CASE(bad_answers_are_reported_where_they_are) {
  BOOST_TEST(error_of("prompt: p\nanswers:\n  - question: \"(unclosed\"\n    choose: x\n") ==
             "tasks/x.yaml:3:15: 'answers[0].question' is not a valid RE2 pattern: missing ): (unclosed");
  BOOST_TEST(error_of("prompt: p\nanswers:\n  - otherwise: fail\n  - {question: a, choose: b}\n") ==
             "tasks/x.yaml:3:5: 'answers[0].otherwise' must be alone in the last entry of 'answers'");
  BOOST_TEST(error_of("prompt: p\nanswers:\n  - otherwise: ask\n") ==
             "tasks/x.yaml:3:16: 'answers[0].otherwise' must be fail, first or deny, got 'ask'");
  BOOST_TEST(error_of("prompt: p\nanswers:\n  - question: a\n") ==
             "tasks/x.yaml:3:5: 'answers[0]' needs 'question' (an RE2 pattern) and 'choose' (the answer)");
  BOOST_TEST(error_of("prompt: p\nanswers:\n  - {question: a, chose: b}\n") ==
             "tasks/x.yaml:3:19: unknown key 'chose' in 'answers[0]' (did you mean 'choose'?)");
}

BOOST_AUTO_TEST_CASE(sandbox_defaults_to_no_network_and_workspace_writes) {
  Task task = load("prompt: p\nsandbox: {network: off, write: workspace}\n");
  BOOST_REQUIRE(task.sandbox.has_value());
  BOOST_TEST((task.sandbox->network == SandboxNetwork::off));
  BOOST_TEST((task.sandbox->write == SandboxWrite::workspace));
  Task open = load("prompt: p\nsandbox: {network: on, write: anywhere}\n");
  BOOST_TEST((open.sandbox->network == SandboxNetwork::on));
  BOOST_TEST((open.sandbox->write == SandboxWrite::anywhere));
  BOOST_TEST(load("prompt: p\nsandbox: {}\n").sandbox.has_value());
  BOOST_TEST(!load("prompt: p\n").sandbox.has_value());
  BOOST_TEST(error_of("prompt: p\nsandbox: {network: none}\n") ==
             "tasks/x.yaml:2:20: 'sandbox.network' must be off or on, got 'none' (did you mean 'on'?)");
  BOOST_TEST(error_of("prompt: p\nsandbox: {netwrk: off}\n") ==
             "tasks/x.yaml:2:11: unknown key 'netwrk' in 'sandbox' (did you mean 'network'?)");
}

BOOST_AUTO_TEST_CASE(sandbox_on_or_off_is_written_as_itself_and_says_where) {
  Task on = load("prompt: p\nsandbox: on\n");
  BOOST_REQUIRE(on.sandbox.has_value());
  BOOST_TEST((on.sandbox->mode == SandboxMode::bubblewrap));
  Task off = load("prompt: p\nsandbox: off\n");
  BOOST_REQUIRE(off.sandbox.has_value());
  BOOST_TEST((off.sandbox->mode == SandboxMode::off));
  BOOST_TEST(off.sandbox->set_by == "tasks/x.yaml:2");
  Task read_only = load("prompt: p\nsandbox: {write: none}\n");
  BOOST_TEST((read_only.sandbox->write == SandboxWrite::none));
  BOOST_TEST(error_of("prompt: p\nsandbox: false\n") ==
             "tasks/x.yaml:2:10: 'sandbox' must be on, off or a map such as {network: off}, got 'false' (write 'on' or "
             "'off')");
  BOOST_TEST(error_of("prompt: p\nsandbox: [on]\n") == "tasks/x.yaml:2:10: 'sandbox' must be a map, got a list");
}

BOOST_AUTO_TEST_CASE(secrets_are_environment_names) {
  Task task = load("prompt: p\nsecrets: [DATABASE_URL, SENTRY_DSN]\n");
  BOOST_TEST((task.secrets == std::vector<std::string>{"DATABASE_URL", "SENTRY_DSN"}));
  BOOST_TEST(error_of("prompt: p\nsecrets: [DATABASE-URL]\n") ==
             "tasks/x.yaml:2:11: 'secrets[0]' must be an environment variable name, got 'DATABASE-URL'");
}

BOOST_AUTO_TEST_CASE(web_search_custom_runs_ddgs_or_the_named_command) {
  Task task = load("prompt: p\ntools: [web_search, web_fetch]\nweb_search: custom\n");
  BOOST_TEST((task.web_search == default_web_search_command()));
  BOOST_TEST((task.web_search == std::vector<std::string>{"ddgs", "text", "-q", "{query}", "-m", "{max_results}"}));
  Task named = load("prompt: p\nweb_search: {mode: custom, command: [./search.sh, \"{query}\"]}\n");
  BOOST_TEST((named.web_search == std::vector<std::string>{"./search.sh", "{query}"}));
  BOOST_TEST(load("prompt: p\ntools: [web_fetch]\n").web_search.empty());
  BOOST_TEST(error_of("prompt: p\ntools: [web_search]\n") ==
             "tasks/x.yaml:2:8: 'tools' lists web_search, which needs 'web_search: custom' (the search command to "
             "run, ddgs by default)");
  BOOST_TEST(error_of("prompt: p\nweb_search: native\n") ==
             "tasks/x.yaml:2:13: 'web_search' must be custom, got 'native'");
}

BOOST_AUTO_TEST_SUITE_END()
