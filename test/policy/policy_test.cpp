#include "model/conversation.h"
#include "policy/policy.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;

BOOST_TEST_DONT_PRINT_LOG_VALUE(agent_run::Verdict)
BOOST_TEST_DONT_PRINT_LOG_VALUE(agent_run::DecisionBasis)

namespace {

ToolCall call_of(const std::string& tool) { return ToolCall{"id", tool, Json::object()}; }

/// Decides in a virtual workspace, as policy examples are.
Decision decide(const Policy& policy, const ToolCall& call) { return agent_run::decide(policy, call, DecisionContext{}); }

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
  BOOST_TEST(decide(policy, ToolCall{"id", "bash", Json::object().set("command", "make -j2")}).verdict == Verdict::allow);
  BOOST_TEST(decide(policy, call_of("write_file")).verdict == Verdict::allow);
}

BOOST_AUTO_TEST_SUITE_END()
