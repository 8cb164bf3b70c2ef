#include "policy/bash_decision.h"

#include "policy/rule_matching.h"
#include "tools/tool_call.h"

#include <algorithm>

namespace agent_run {

namespace {

constexpr std::size_t k_max_shown = 120;

/// A command as messages quote it: one line, cut when long.
std::string shown(std::string_view text) {
  std::string line(text.substr(0, k_max_shown));
  std::replace(line.begin(), line.end(), '\n', ' ');
  return "`" + line + (text.size() > k_max_shown ? "...`" : "`");
}

std::string line_of(const Rule& rule) { return "rule '" + rule.id + "' (line " + std::to_string(rule.line) + ")"; }

bool has_matchers(const Rule& rule) {
  return !rule.paths.empty() || !rule.argv_prefix.empty() || !rule.argv_regex.empty();
}

Decision not_understood(std::string reason, std::vector<std::string> steps) {
  steps.push_back(reason);
  return Decision{Verdict::deny, DecisionBasis::not_understood, "", std::move(reason), std::move(steps)};
}

/// One simple command seen every way deny rules look at it.
struct CheckedCommand {
  const SimpleCommand* command = nullptr;
  CommandViews views;
  std::vector<CanonicalPath> paths;
};

/// Protected paths and deny rules over every view of one command; nullopt when none denies it.
std::optional<Decision> deny_of(const Policy& policy, const CheckedCommand& checked, const DecisionContext& context,
                                const std::string& label, std::vector<std::string>& steps) {
  for (const CanonicalPath& path : checked.paths) {
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
    if (!bash_deny_matches(rule, checked.views, checked.paths)) continue;
    steps.push_back(label + ": " + line_of(rule) + " denies it");
    return Decision{Verdict::deny, DecisionBasis::rule, rule.id, denial_reason(rule) + " (" + label + ")",
                    std::move(steps)};
  }
  return std::nullopt;
}

/// The allow rules that accept one command, and a note when one matched all but its redirections.
std::vector<const Rule*> allowing_rules(const Policy& policy, const SimpleCommand& command, std::string& note) {
  std::vector<const Rule*> allowing;
  for (const Rule& rule : policy.rules) {
    if (rule.verdict != Verdict::allow || !rule_names_tool(rule, "bash") || !rule.paths.empty()) continue;
    if (!argv_matches(rule, command.argv)) continue;
    if (redirects_allowed(rule, command)) {
      allowing.push_back(&rule);
    } else if (note.empty()) {
      note = "; " + line_of(rule) + " matches its words but not its redirections (add them to its 'redirects')";
    }
  }
  return allowing;
}

std::string redirect_list(const SimpleCommand& command) {
  std::string list;
  for (const ShellRedirect& redirect : command.redirects) {
    list += (list.empty() ? "" : ", ") + std::to_string(redirect.fd) + redirect.op + redirect.target;
  }
  return list;
}

/// Every command must be allowed on its own; the first that is not denies the whole call.
Decision allow_each(const Policy& policy, const std::vector<CheckedCommand>& commands, std::vector<std::string> steps) {
  std::vector<std::string> ids;
  bool by_rule = false;
  for (std::size_t i = 0; i < commands.size(); ++i) {
    const SimpleCommand& command = *commands[i].command;
    const std::string label = "command " + std::to_string(i + 1) + " " + shown(command.text);
    std::string note;
    std::vector<const Rule*> allowing = allowing_rules(policy, command, note);
    if (!allowing.empty()) {
      by_rule = true;
      for (const Rule* rule : allowing) {
        if (std::find(ids.begin(), ids.end(), rule->id) == ids.end()) ids.push_back(rule->id);
      }
      steps.push_back(label + ": allowed by " + line_of(*allowing.front()));
    } else if (policy.unmatched == Verdict::allow && command.redirects.empty()) {
      steps.push_back(label + ": no rule matches; unmatched: allow");
    } else {
      std::string why = command.redirects.empty()
                            ? "no rule allows " + label
                            : "no rule allows " + label + " with its redirections (" + redirect_list(command) + ")";
      steps.push_back(why + note);
      return Decision{Verdict::deny, DecisionBasis::unmatched, "", why + note, std::move(steps)};
    }
  }
  std::string joined;
  for (const std::string& id : ids) joined += (joined.empty() ? "" : ",") + id;
  return Decision{Verdict::allow, by_rule ? DecisionBasis::rule : DecisionBasis::unmatched, joined,
                  by_rule ? "allowed by policy" : "no rule matched; the policy allows unmatched calls",
                  std::move(steps)};
}

}  // namespace

Decision decide_bash(const Policy& policy, const ToolCall& call, const DecisionContext& context) {
  std::vector<std::string> steps;
  for (const Rule& rule : policy.rules) {
    if (rule.verdict == Verdict::deny && !has_matchers(rule) && rule_names_tool(rule, "bash")) {
      steps.push_back(line_of(rule) + " denies every bash call");
      return Decision{Verdict::deny, DecisionBasis::rule, rule.id, denial_reason(rule), std::move(steps)};
    }
  }
  const Json* command = call.input.find("command");
  if (!command || !command->is_string()) return not_understood("the call has no command", std::move(steps));
  ShellParse parse = parse_shell(command->as_string());
  if (!parse.understood()) {
    return not_understood("the command cannot be checked: " + parse.problem + " (at byte " +
                              std::to_string(parse.problem_at) +
                              "); only simple commands joined by &&, ||, ; and | can be allowed",
                          std::move(steps));
  }
  std::vector<CheckedCommand> commands;
  for (std::size_t i = 0; i < parse.commands.size(); ++i) {
    CheckedCommand checked{&parse.commands[i], command_views(parse.commands[i]), {}};
    const std::string label = "command " + std::to_string(i + 1) + " " + shown(parse.commands[i].text);
    if (!checked.views.problem.empty()) return not_understood(label + ": " + checked.views.problem, std::move(steps));
    checked.paths = command_paths(checked.views, context);
    if (auto denied = deny_of(policy, checked, context, label, steps)) return std::move(*denied);
    steps.push_back(label + ": no deny rule or protected path matches it (" +
                    std::to_string(checked.views.argvs.size()) + " view(s) through wrappers)");
    commands.push_back(std::move(checked));
  }
  return allow_each(policy, commands, std::move(steps));
}

bool bash_rule_decides(const Rule& rule, const ToolCall& call, const DecisionContext& context) {
  const Json* command = call.input.find("command");
  if (!command || !command->is_string()) return false;
  ShellParse parse = parse_shell(command->as_string());
  if (!parse.understood()) return false;
  bool any = false;
  bool all = true;
  for (const SimpleCommand& simple : parse.commands) {
    CommandViews views = command_views(simple);
    if (!views.problem.empty()) return false;
    bool matched = rule.verdict == Verdict::deny ? bash_deny_matches(rule, views, command_paths(views, context))
                                                 : bash_allow_matches(rule, simple);
    any = any || matched;
    all = all && matched;
  }
  return rule.verdict == Verdict::deny ? any : all;
}

}  // namespace agent_run
