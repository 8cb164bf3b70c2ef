#include "policy/policy.h"

#include "model/conversation.h"

#include <algorithm>
#include <array>

namespace agent_run {

ApprovalClass approval_class(std::string_view tool_name) {
  static constexpr std::array<std::string_view, 3> k_automatic = {"read_file", "glob", "grep"};
  static constexpr std::array<std::string_view, 5> k_never = {"process_output", "process_kill", "todo_write",
                                                              "context_status", "ask_user"};
  if (std::find(k_automatic.begin(), k_automatic.end(), tool_name) != k_automatic.end()) {
    return ApprovalClass::automatic;
  }
  if (std::find(k_never.begin(), k_never.end(), tool_name) != k_never.end()) {
    return ApprovalClass::never;
  }
  return ApprovalClass::prompts;
}

namespace {

bool rule_names_tool(const Rule& rule, std::string_view tool_name) {
  return std::find(rule.tools.begin(), rule.tools.end(), tool_name) != rule.tools.end();
}

Decision denied_by(const Rule& rule) {
  std::string reason = rule.ask ? "requires approval; no human in the loop" : "denied by policy";
  if (!rule.message.empty()) {
    reason += ": " + rule.message;
  }
  return Decision{Verdict::deny, DecisionBasis::rule, rule.id, reason};
}

}  // namespace

Decision decide(const Policy& policy, const ToolCall& call) {
  const ApprovalClass approval = approval_class(call.name);
  if (approval == ApprovalClass::never) {
    return Decision{Verdict::allow, DecisionBasis::approval_class, "", "touches only the runner's own state"};
  }
  const Rule* allowing = nullptr;
  for (const Rule& rule : policy.rules) {
    if (!rule_names_tool(rule, call.name)) {
      continue;
    }
    if (rule.verdict == Verdict::deny) {
      return denied_by(rule);  // the strictest match wins, wherever it stands
    }
    allowing = allowing ? allowing : &rule;
  }
  if (allowing) {
    return Decision{Verdict::allow, DecisionBasis::rule, allowing->id, "allowed by policy"};
  }
  if (approval == ApprovalClass::automatic) {
    return Decision{Verdict::allow, DecisionBasis::approval_class, "", "allowed without a rule (reads only)"};
  }
  if (policy.unmatched == Verdict::allow) {
    return Decision{Verdict::allow, DecisionBasis::unmatched, "", "no rule matched; the policy allows unmatched calls"};
  }
  return Decision{Verdict::deny, DecisionBasis::unmatched, "",
                  "no rule allows " + call.name + "; the policy denies unmatched calls"};
}

Policy builtin_policy() { return Policy{}; }

const char* to_string(Verdict verdict) { return verdict == Verdict::allow ? "allowed" : "denied"; }

const char* to_string(DecisionBasis basis) {
  switch (basis) {
    case DecisionBasis::rule: return "rule";
    case DecisionBasis::approval_class: return "approval_class";
    case DecisionBasis::unmatched: return "unmatched";
    case DecisionBasis::protected_path: return "protected_path";
  }
  return "unknown";
}

}  // namespace agent_run
