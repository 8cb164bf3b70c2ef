#include "policy/sandboxed_bash.h"

#include "policy/command_checks.h"
#include "policy/shell_parts.h"
#include "tools/tool_call.h"

namespace agent_run {

Decision decide_sandboxed_bash(const Policy& policy, const ToolCall& call, const DecisionContext& context) {
  std::vector<std::string> steps{"the sandbox is on and the policy says 'sandboxed_bash: allow' (line " +
                                 std::to_string(policy.sandboxed_bash_line) +
                                 "): only deny rules and protected paths decide"};
  if (auto denied = bash_denied_outright(policy, steps)) return std::move(*denied);
  const Json* command = call.input.find("command");
  if (!command || !command->is_string()) return not_understood("the call has no command", std::move(steps));
  const std::string& text = command->as_string();
  if (std::optional<TextProblem> problem = shell_text_problem(text)) {
    return not_understood(
        "the command cannot be read: " + problem->message + " (at byte " + std::to_string(problem->at) + ")",
        std::move(steps));
  }
  ShellParts parts = shell_parts(text);
  if (!parts.complete) return not_understood("the command is nested too deeply to check its parts", std::move(steps));
  if (parts.commands.empty()) return not_understood("the command is empty", std::move(steps));
  for (std::size_t i = 0; i < parts.commands.size(); ++i) {
    CheckedCommand checked = check_command(parts.commands[i], ScriptReading::parts, context);
    const std::string label = command_label("part", i, parts.commands[i].text);
    if (std::string problem = check_problem(checked); !problem.empty()) {
      return not_understood(label + ": " + problem, std::move(steps));
    }
    if (auto denied = command_denial(policy, checked, context, label, steps)) return std::move(*denied);
  }
  steps.push_back(std::to_string(parts.commands.size()) + " part(s): no deny rule or protected path matches any");
  return Decision{Verdict::allow, DecisionBasis::sandboxed, "",
                  "allowed: the sandbox confines it, and no deny rule matches its parts", std::move(steps)};
}

std::optional<std::string> sandbox_off_problem(const Policy& policy, std::string_view turned_off_by) {
  // With 'unmatched: deny' the policy falls back to its rules without the sandbox (each command
  // allowed by a rule, the fail-closed parser); with anything else, every command no rule names
  // would run unconfined.
  if (policy.sandboxed_bash != SandboxedBash::allow || policy.unmatched == Verdict::deny) return std::nullopt;
  const std::string file = policy.source.empty() ? "the policy" : "its policy " + policy.source.string();
  return std::string(turned_off_by) + " turns the sandbox off, but " + file + " says 'sandboxed_bash: allow' (line " +
         std::to_string(policy.sandboxed_bash_line) +
         ") and does not deny unmatched calls, so without the sandbox every command that no rule names would run "
         "unconfined: remove one of them, or use another policy";
}

}  // namespace agent_run
