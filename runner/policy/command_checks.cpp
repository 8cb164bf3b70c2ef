#include "policy/command_checks.h"

#include "policy/rule_matching.h"
#include "policy/survey_checks.h"

#include <algorithm>

namespace agent_run {

namespace {

constexpr std::size_t k_max_shown = 120;

bool has_matchers(const Rule& rule) {
  return !rule.paths.empty() || !rule.argv_prefix.empty() || !rule.argv_regex.empty();
}

}  // namespace

CheckedCommand check_command(const SimpleCommand& command, ScriptReading reading, const DecisionContext& context) {
  CheckedCommand checked{&command, command_views(command, reading), {}};
  if (checked.views.problem.empty()) checked.paths = command_paths(checked.views, context);
  return checked;
}

std::string check_problem(const CheckedCommand& checked) {
  return !checked.views.problem.empty() ? checked.views.problem : checked.paths.problem;
}

std::optional<Decision> command_denial(const Policy& policy, const CheckedCommand& checked,
                                       const DecisionContext& context, const std::string& label,
                                       std::vector<std::string>& steps) {
  for (const CanonicalPath& path : checked.paths.paths) {
    if (!is_protected(path, policy, context)) continue;
    std::string name = path.inside ? path.relative : path.absolute;
    steps.push_back(label + " names the protected path '" + name + "'");
    return Decision{Verdict::deny, DecisionBasis::protected_path, "",
                    label + " names '" + name +
                        "', which is protected: .git/, the policy file and the runner's own "
                        "files are never touched by commands, whatever the rules say",
                    std::move(steps)};
  }
  for (const Rule& rule : policy.rules) {
    if (rule.verdict != Verdict::deny || !rule_names_tool(rule, "bash")) continue;
    if (!bash_deny_matches(rule, checked.views, checked.paths.paths)) continue;
    steps.push_back(label + ": " + rule_label(rule) + " denies it");
    return Decision{Verdict::deny, DecisionBasis::rule, rule.id, denial_reason(rule) + " (" + label + ")",
                    std::move(steps)};
  }
  return survey_denial(policy, checked, context, label, steps);
}

std::optional<Decision> bash_denied_outright(const Policy& policy, std::vector<std::string>& steps) {
  for (const Rule& rule : policy.rules) {
    if (rule.verdict == Verdict::deny && !has_matchers(rule) && rule_names_tool(rule, "bash")) {
      steps.push_back(rule_label(rule) + " denies every bash call");
      return Decision{Verdict::deny, DecisionBasis::rule, rule.id, denial_reason(rule), std::move(steps)};
    }
  }
  return std::nullopt;
}

Decision not_understood(std::string reason, std::vector<std::string> steps) {
  steps.push_back(reason);
  return Decision{Verdict::deny, DecisionBasis::not_understood, "", std::move(reason), std::move(steps)};
}

std::string command_label(std::string_view noun, std::size_t index, std::string_view text) {
  std::string line(text.substr(0, k_max_shown));
  std::replace(line.begin(), line.end(), '\n', ' ');
  return std::string(noun) + " " + std::to_string(index + 1) + " `" + line + (text.size() > k_max_shown ? "...`" : "`");
}

std::string rule_label(const Rule& rule) {
  // A rule taken over by `extends:` names the policy its line is in: the user's own file is shorter.
  const std::string where = rule.origin.empty() ? "" : " of " + rule.origin;
  return "rule '" + rule.id + "' (line " + std::to_string(rule.line) + where + ")";
}

}  // namespace agent_run
