#include "policy/policy.h"

#include "policy/bash_decision.h"
#include "policy/command_checks.h"
#include "policy/rule_matching.h"
#include "policy/survey_checks.h"
#include "tools/tool_call.h"

#include <algorithm>
#include <optional>

namespace agent_run {

ApprovalClass approval_class(std::string_view tool_name) {
  const BuiltinTool* tool = find_builtin_tool(tool_name);
  return tool ? tool->approval : ApprovalClass::prompts;
}

namespace {

/// Protected paths, then deny rules, then allow rules, for every tool but bash; nullopt when
/// nothing decides and the approval class and `unmatched` must.
std::optional<Decision> decide_by_rules(const Policy& policy, const ToolCall& call, const CallFacts& facts,
                                        const DecisionContext& context) {
  if (writes_files(call.name)) {
    for (const CanonicalPath& path : facts.paths) {
      if (is_protected(path, policy, context)) {
        std::string shown = path.inside ? path.relative : path.absolute;
        return Decision{Verdict::deny,
                        DecisionBasis::protected_path,
                        "",
                        "'" + shown +
                            "' is protected: .git/, the policy file and the runner's own files are never "
                            "written, whatever the rules say",
                        {"protected path: " + shown}};
      }
    }
  }
  std::vector<std::string> allowing;
  std::vector<std::string> steps;
  for (const Rule& rule : policy.rules) {
    if (!rule_names_tool(rule, call.name) || !rule_matches_facts(rule, facts)) continue;
    if (rule.verdict == Verdict::deny) {
      return Decision{Verdict::deny,
                      DecisionBasis::rule,
                      rule.id,
                      denial_reason(rule),
                      {rule_label(rule) + " denies it"}};
    }
    allowing.push_back(rule.id);
    steps.push_back(rule_label(rule) + " allows it");
  }
  if (!allowing.empty()) {
    std::string ids;
    for (const std::string& id : allowing) ids += (ids.empty() ? "" : ",") + id;
    steps.push_back("no deny rule matches");
    return Decision{Verdict::allow, DecisionBasis::rule, ids, "allowed by policy", steps};
  }
  return std::nullopt;
}

/// A file tool's path that is a file the survey hides by another name (a hard link, a rename).
std::optional<Decision> hidden_file_of_call(const Policy& policy, const CallFacts& facts,
                                            const DecisionContext& context) {
  std::optional<Survey> made;
  const Survey* survey = context.survey;
  if (!survey) {
    const bool linked = std::any_of(facts.paths.begin(), facts.paths.end(), [](const CanonicalPath& path) {
      std::error_code ec;
      if (!std::filesystem::is_regular_file(path.absolute, ec)) return false;
      const std::uintmax_t links = std::filesystem::hard_link_count(path.absolute, ec);
      return !ec && links > 1;
    });
    if (linked) survey = decision_survey(policy, context, made);
  }
  if (!survey) return std::nullopt;
  std::vector<std::string> steps;
  return hidden_file_denial(facts.paths, *survey, "the call", steps);
}

}  // namespace

Decision decide(const Policy& policy, const ToolCall& call, const DecisionContext& context) {
  const ApprovalClass approval = approval_class(call.name);
  if (approval == ApprovalClass::never) {
    return Decision{Verdict::allow,
                    DecisionBasis::approval_class,
                    "",
                    "touches only the runner's own state",
                    {call.name + " is in the 'never' approval class: no rule applies"}};
  }
  if (call.name == "bash") return decide_bash(policy, call, context);
  const CallFacts facts = call_facts(call, context);
  if (!facts.problem.empty()) {
    return Decision{Verdict::deny, DecisionBasis::not_understood, "", facts.problem, {facts.problem}};
  }
  std::optional<Decision> decision = decide_by_rules(policy, call, facts, context);
  if (decision && decision->verdict == Verdict::deny) return std::move(*decision);
  if (auto hidden = hidden_file_of_call(policy, facts, context)) return std::move(*hidden);
  if (decision) return std::move(*decision);
  if (approval == ApprovalClass::automatic) {
    return Decision{Verdict::allow,
                    DecisionBasis::approval_class,
                    "",
                    "allowed without a rule (reads only)",
                    {"no rule matches; " + call.name + " is in the 'automatic' approval class"}};
  }
  if (policy.unmatched == Verdict::allow) {
    return Decision{Verdict::allow,
                    DecisionBasis::unmatched,
                    "",
                    "no rule matched; the policy allows unmatched calls",
                    {"no rule matches; unmatched: allow"}};
  }
  return Decision{Verdict::deny,
                  DecisionBasis::unmatched,
                  "",
                  "no rule allows " + call.name + "; the policy denies unmatched calls",
                  {"no rule matches; unmatched: deny"}};
}

bool rule_decides(const Rule& rule, const ToolCall& call, const DecisionContext& context) {
  if (approval_class(call.name) == ApprovalClass::never || !rule_names_tool(rule, call.name)) return false;
  if (call.name == "bash") return bash_rule_decides(rule, call, context);
  const CallFacts facts = call_facts(call, context);
  return facts.problem.empty() && rule_matches_facts(rule, facts);
}

std::optional<std::string> path_denied_by(const Policy& policy, std::string_view tool_name, std::string_view path,
                                          const DecisionContext& context) {
  const CallFacts facts{canonical_paths(context.workspace, path), std::nullopt, ""};
  for (const Rule& rule : policy.rules) {
    if (rule.verdict == Verdict::deny && !rule.paths.empty() && rule_names_tool(rule, tool_name) &&
        rule_matches_facts(rule, facts)) {
      return rule.id;
    }
  }
  return std::nullopt;
}

Policy builtin_policy() { return Policy{}; }

const char* to_string(Verdict verdict) { return verdict == Verdict::allow ? "allowed" : "denied"; }

const char* to_string(DecisionBasis basis) {
  switch (basis) {
    case DecisionBasis::rule: return "rule";
    case DecisionBasis::approval_class: return "approval_class";
    case DecisionBasis::unmatched: return "unmatched";
    case DecisionBasis::protected_path: return "protected_path";
    case DecisionBasis::not_understood: return "not_understood";
    case DecisionBasis::sandboxed: return "sandboxed";
  }
  return "unknown";
}

}  // namespace agent_run
