#include "app/commands.h"

#include "base/files.h"
#include "base/json.h"
#include "base/text.h"
#include "model/conversation.h"
#include "policy/policy_examples.h"
#include "policy/policy_loader.h"

#include <algorithm>
#include <filesystem>
#include <map>

namespace agent_run {

namespace {

/// Each rule of `ids` (comma-separated), with the policy it comes from when it is not the file's own.
std::string rules_named(const std::string& ids, const Policy& policy) {
  std::string text;
  for (const std::string& id : split(ids, ',')) {
    auto rule = std::find_if(policy.rules.begin(), policy.rules.end(), [&](const Rule& r) { return r.id == id; });
    bool inherited = rule != policy.rules.end() && !rule->origin.empty();
    text += (text.empty() ? "rule '" : ", rule '") + id + "'" + (inherited ? " (from " + rule->origin + ")" : "");
  }
  return text;
}

std::string decided_by(const Decision& decision, const Policy& policy) {
  switch (decision.basis) {
    case DecisionBasis::rule: return rules_named(decision.rule_id, policy);
    case DecisionBasis::approval_class: return "the tool's approval class";
    case DecisionBasis::unmatched: return "the policy's 'unmatched' (no rule decided)";
    case DecisionBasis::protected_path: return "a protected path";
    case DecisionBasis::not_understood: return "the parser: the call cannot be checked";
    case DecisionBasis::sandboxed: return "the sandbox: it confines the command, and no deny rule names a part of it";
  }
  return "";
}

/// "stock policy 'default' (7 of its rules)", then what that one extends: the policy's `extends:` chain.
std::string extends_chain(const Policy& policy) {
  std::string text;
  for (const std::string& base : policy.bases) {
    auto rules = std::count_if(policy.rules.begin(), policy.rules.end(), [&](const Rule& r) { return r.origin == base; });
    text += (text.empty() ? "" : ", which extends ") + base + " (" + std::to_string(rules) + " of its rules)";
  }
  return text;
}

void print_decision(const Policy& policy, const Decision& decision, bool sandboxed, std::ostream& out) {
  out << "decision: " << to_string(decision.verdict) << "\n"
      << "decided by: " << decided_by(decision, policy) << "\n"
      << "reason: " << decision.reason << "\n"
      << "sandbox: " << (sandboxed ? "on" : "off") << "\n"
      << "steps:\n";
  for (const std::string& step : decision.steps) out << "  - " << step << "\n";
  out << "policy: " << policy.source.string() << " (sha256 " << policy.sha256 << ")\n";
  if (!policy.bases.empty()) out << "extends: " << extends_chain(policy) << "\n";
}

}  // namespace

int policy_explain_command(const CliOptions& options, const ProgramContext& context) {
  Expected<Policy> policy = load_policy_file(*options.policy);
  if (!policy) {
    context.err << policy.error().message << "\n";
    return static_cast<int>(ExitCode::invalid);
  }
  Expected<Json> input = parse_json(*options.input);
  if (!input || !input->is_object()) {
    context.err << "agent-run: --input must be a JSON object" << (input ? std::string() : ": " + input.error().message)
                << "\n";
    return static_cast<int>(ExitCode::invalid);
  }
  if (auto problem = tool_name_problem(*options.tool)) {
    context.err << "agent-run: --tool: " << *problem << "\n";
    return static_cast<int>(ExitCode::invalid);
  }
  std::error_code ec;
  std::filesystem::path workspace =
      options.workspace ? std::filesystem::path(*options.workspace) : std::filesystem::current_path(ec);
  if (!std::filesystem::is_directory(workspace, ec)) {
    context.err << "agent-run: --workspace '" << workspace.string() << "' is not a folder\n";
    return static_cast<int>(ExitCode::invalid);
  }
  DecisionContext decision_context{workspace, {}, options.sandbox.value_or(true)};
  Decision decision = decide(*policy, ToolCall{"explain", *options.tool, *input}, decision_context);
  print_decision(*policy, decision, decision_context.sandboxed, context.out);
  return static_cast<int>(decision.verdict == Verdict::allow ? ExitCode::all_passed : ExitCode::some_failed);
}

int policy_test_command(const CliOptions& options, const ProgramContext& context) {
  bool invalid = false;
  int passed = 0;
  int failed = 0;
  for (const std::string& file : options.files) {
    Expected<Policy> policy = load_policy_file(file, ExampleCheck::by_caller);
    if (!policy) {
      context.err << policy.error().message << "\n";
      invalid = true;
      continue;
    }
    for (const ExampleOutcome& outcome : check_examples(*policy)) {
      context.out << file << ":" << outcome.line << ":" << outcome.column << ": "
                  << (outcome.passed ? "ok    " : "FAIL  ") << outcome.message << "\n";
      ++(outcome.passed ? passed : failed);
    }
  }
  context.out << passed << " passed, " << failed << " failed\n";
  if (invalid) return static_cast<int>(ExitCode::invalid);
  return static_cast<int>(failed == 0 ? ExitCode::all_passed : ExitCode::some_failed);
}

}  // namespace agent_run
