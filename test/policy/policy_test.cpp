#include "policy/policy.h"
#include "model/conversation.h"
#include "policy/policy_loader.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;

BOOST_TEST_DONT_PRINT_LOG_VALUE(agent_run::Verdict)
BOOST_TEST_DONT_PRINT_LOG_VALUE(agent_run::DecisionBasis)

namespace {

ToolCall call_of(const std::string& tool) { return ToolCall{"id", tool, Json::object()}; }

/// Decides in a virtual workspace, as policy examples are.
Decision decide(const Policy& policy, const ToolCall& call) {
  return agent_run::decide(policy, call, DecisionContext{});
}

Rule rule(const std::string& id, Verdict verdict, std::vector<std::string> tools, bool ask = false) {
  return Rule{id, verdict, ask, std::move(tools), "msg", 1};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(policy_decisions)

BOOST_AUTO_TEST_CASE(reads_are_allowed_without_a_rule_and_writes_are_not) {
  Policy policy = builtin_policy();
  BOOST_TEST(decide(policy, call_of("read_file")).verdict == Verdict::allow);
  BOOST_TEST((decide(policy, call_of("read_file")).basis == DecisionBasis::approval_class));
  Decision write = decide(policy, call_of("write_file"));
  BOOST_TEST(write.verdict == Verdict::deny);
  BOOST_TEST((write.basis == DecisionBasis::unmatched));
  BOOST_TEST(decide(policy, call_of("mcp__github__get_issue")).verdict == Verdict::deny);
}

BOOST_AUTO_TEST_CASE(deny_wins_over_allow_whatever_the_order) {
  Policy policy;
  policy.rules = {rule("allow-bash", Verdict::allow, {"bash"}), rule("no-bash", Verdict::deny, {"bash"})};
  BOOST_TEST(decide(policy, call_of("bash")).rule_id == "no-bash");
  std::swap(policy.rules[0], policy.rules[1]);
  BOOST_TEST(decide(policy, call_of("bash")).rule_id == "no-bash");
  BOOST_TEST(decide(policy, call_of("bash")).verdict == Verdict::deny);
}

BOOST_AUTO_TEST_CASE(deny_rules_apply_to_automatic_tools) {
  Policy policy;
  policy.rules = {rule("no-reading", Verdict::deny, {"read_file"})};
  BOOST_TEST(decide(policy, call_of("read_file")).verdict == Verdict::deny);
  BOOST_TEST(decide(policy, call_of("grep")).verdict == Verdict::allow);
}

BOOST_AUTO_TEST_CASE(ask_means_deny_with_no_human_in_the_loop) {
  Policy policy;
  policy.rules = {rule("ask-edit", Verdict::deny, {"edit_file"}, true)};
  Decision decision = decide(policy, call_of("edit_file"));
  BOOST_TEST(decision.verdict == Verdict::deny);
  BOOST_TEST(decision.reason == "requires approval; no human in the loop: msg");
}

BOOST_AUTO_TEST_CASE(runner_state_tools_are_not_subject_to_rules) {
  Policy policy;
  policy.rules = {rule("no-todo", Verdict::deny, {"todo_write"})};
  BOOST_TEST(decide(policy, call_of("todo_write")).verdict == Verdict::allow);
}

BOOST_AUTO_TEST_CASE(unmatched_allow_lets_unnamed_tools_through) {
  Policy policy;
  policy.unmatched = Verdict::allow;
  BOOST_TEST(decide(policy, ToolCall{"id", "bash", Json::object().set("command", "make -j2")}).verdict ==
             Verdict::allow);
  BOOST_TEST(decide(policy, call_of("write_file")).verdict == Verdict::allow);
}

namespace {

ToolCall bash(const std::string& command) { return ToolCall{"id", "bash", Json::object().set("command", command)}; }

Policy loaded(const std::string& yaml) {
  Expected<Policy> policy = load_policy(yaml, "p.yaml");
  BOOST_REQUIRE_MESSAGE(policy.has_value(), (policy ? std::string() : policy.error().message));
  return *policy;
}

}  // namespace

BOOST_AUTO_TEST_CASE(redirections_need_a_rule_that_lists_them_even_when_unmatched_allows) {
  Policy policy = loaded(
      "version: 1\nunmatched: allow\nrules:\n"
      "  - id: make\n    allow: bash\n    argv_prefix: [make]\n    redirects: [/dev/null, \"&1\"]\n");
  BOOST_TEST(decide(policy, bash("make 2>&1 >/dev/null")).verdict == Verdict::allow);
  BOOST_TEST(decide(policy, bash("ls")).verdict == Verdict::allow);
  BOOST_TEST(decide(policy, bash("ls")).basis == DecisionBasis::unmatched);
  Decision to_file = decide(policy, bash("make > log.txt"));
  BOOST_TEST(to_file.verdict == Verdict::deny);
  BOOST_TEST(to_file.reason ==
             "no rule allows command 1 `make > log.txt` with its redirections (1>log.txt); rule 'make' "
             "(line 4) matches its words but not its redirections (add them to its 'redirects')");
  BOOST_TEST(decide(policy, bash("ls 2>/dev/null")).verdict == Verdict::deny);
}

BOOST_AUTO_TEST_CASE(a_bash_call_allowed_by_several_rules_names_them_all_and_each_step) {
  Policy policy = loaded(
      "version: 1\nrules:\n"
      "  - id: make\n    allow: bash\n    argv_prefix: [make]\n"
      "  - id: tests\n    allow: bash\n    argv_regex: [ctest, ...]\n");
  Decision decision = decide(policy, bash("make -j2 && ctest -V && make install"));
  BOOST_TEST(decision.verdict == Verdict::allow);
  BOOST_TEST(decision.rule_id == "make,tests");
  BOOST_TEST((decision.steps.back() == "command 3 `make install`: allowed by rule 'make' (line 3)"));
  BOOST_TEST(decide(policy, bash("ctest")).verdict == Verdict::allow);
}

BOOST_AUTO_TEST_CASE(ask_rules_deny_commands_with_the_reason_of_no_human) {
  Policy policy = loaded(
      "version: 1\nunmatched: allow\nrules:\n"
      "  - id: push\n    ask: bash\n    argv_prefix: [git, push]\n    message: pushing needs a person\n");
  Decision decision = decide(policy, bash("git status && git push origin main"));
  BOOST_TEST(decision.verdict == Verdict::deny);
  BOOST_TEST(decision.rule_id == "push");
  BOOST_TEST(decision.reason ==
             "requires approval; no human in the loop: pushing needs a person (command 2 `git push origin main`)");
}

BOOST_AUTO_TEST_CASE(a_deny_without_matchers_denies_every_bash_call_before_parsing) {
  Policy policy = loaded("version: 1\nrules:\n  - id: no-shell\n    deny: bash\n    message: use the file tools\n");
  Decision decision = decide(policy, bash("echo $(id)"));
  BOOST_TEST(decision.basis == DecisionBasis::rule);
  BOOST_TEST(decision.rule_id == "no-shell");
}

BOOST_AUTO_TEST_CASE(protected_paths_cover_what_is_in_them_unless_they_hold_the_workspace) {
  agent_run::test::TempFolder folder;
  std::filesystem::create_directories(folder.path() / "ws/out");
  Policy policy = loaded("version: 1\nunmatched: allow\n");
  DecisionContext context{folder.path() / "ws", {folder.path() / "ws/out"}};
  ToolCall write{"id", "write_file", Json::object().set("path", "out/report.json")};
  BOOST_TEST(agent_run::decide(policy, write, context).basis == DecisionBasis::protected_path);
  BOOST_TEST(agent_run::decide(policy, bash("cat out/report.json"), context).basis == DecisionBasis::protected_path);
  DecisionContext holding{folder.path() / "ws", {folder.path()}};
  BOOST_TEST(agent_run::decide(policy, write, holding).verdict == Verdict::allow);
}

BOOST_AUTO_TEST_CASE(search_tools_can_ask_which_paths_the_policy_hides) {
  Policy policy = loaded("version: 1\nrules:\n  - id: secrets\n    deny: [grep, read_file]\n    paths: [.env]\n");
  BOOST_TEST(path_denied_by(policy, "grep", "config/.env", DecisionContext{}).value_or("") == "secrets");
  BOOST_TEST(!path_denied_by(policy, "grep", "config/app.env", DecisionContext{}).has_value());
  BOOST_TEST(!path_denied_by(policy, "glob", "config/.env", DecisionContext{}).has_value());
}

BOOST_AUTO_TEST_SUITE_END()
