#include "policy/bash_decision.h"

#include "policy/command_checks.h"
#include "policy/rule_matching.h"
#include "policy/sandboxed_bash.h"
#include "tools/tool_call.h"

#include <algorithm>

namespace agent_run {

namespace {

/// The allow rules that accept one command, and a note when one matched all but its redirections.
std::vector<const Rule*> allowing_rules(const Policy& policy, const SimpleCommand& command, std::string& note) {
  std::vector<const Rule*> allowing;
  for (const Rule& rule : policy.rules) {
    if (rule.verdict != Verdict::allow || !rule_names_tool(rule, "bash") || !rule.paths.empty()) continue;
    if (!argv_matches(rule, command.argv)) continue;
    if (redirects_allowed(rule, command)) {
      allowing.push_back(&rule);
    } else if (note.empty()) {
      note = "; " + rule_label(rule) + " matches its words but not its redirections (add them to its 'redirects')";
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
    const std::string label = command_label("command", i, command.text);
    std::string note;
    std::vector<const Rule*> allowing = allowing_rules(policy, command, note);
    if (!allowing.empty()) {
      by_rule = true;
      for (const Rule* rule : allowing) {
        if (std::find(ids.begin(), ids.end(), rule->id) == ids.end()) ids.push_back(rule->id);
      }
      steps.push_back(label + ": allowed by " + rule_label(*allowing.front()));
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
  if (context.sandboxed && policy.sandboxed_bash == SandboxedBash::allow) {
    return decide_sandboxed_bash(policy, call, context);
  }
  std::vector<std::string> steps;
  if (auto denied = bash_denied_outright(policy, steps)) return std::move(*denied);
  const Json* command = call.input.find("command");
  if (!command || !command->is_string()) return not_understood("the call has no command", std::move(steps));
  ShellParse parse = parse_shell(command->as_string());
  if (!parse.understood()) {
    return not_understood("the command cannot be checked: " + parse.problem + " (at byte " +
                              std::to_string(parse.problem_at) +
                              "); only simple commands joined by &&, ||, ; and | can be allowed" +
                              (policy.sandboxed_bash == SandboxedBash::allow
                                   ? " (the policy's 'sandboxed_bash: allow' applies only inside the sandbox)"
                                   : ""),
                          std::move(steps));
  }
  std::vector<CheckedCommand> commands;
  for (std::size_t i = 0; i < parse.commands.size(); ++i) {
    CheckedCommand checked = check_command(parse.commands[i], ScriptReading::strict, context);
    const std::string label = command_label("command", i, parse.commands[i].text);
    if (std::string problem = check_problem(checked); !problem.empty()) {
      return not_understood(label + ": " + problem, std::move(steps));
    }
    if (auto denied = command_denial(policy, checked, context, label, steps)) return std::move(*denied);
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
    CheckedCommand checked = check_command(simple, ScriptReading::strict, context);
    if (!check_problem(checked).empty()) return false;
    bool matched = rule.verdict == Verdict::deny ? bash_deny_matches(rule, checked.views, checked.paths.paths)
                                                 : bash_allow_matches(rule, simple);
    any = any || matched;
    all = all && matched;
  }
  return rule.verdict == Verdict::deny ? any : all;
}

}  // namespace agent_run
