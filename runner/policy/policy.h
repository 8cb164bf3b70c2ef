#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace agent_run {

struct ToolCall;

enum class Verdict { allow, deny };

/// The seed's approval classes: how a tool is treated when no rule names it.
enum class ApprovalClass {
  automatic,  // read_file, glob, grep: allowed unless a deny rule matches
  prompts,    // edit_file, write_file, bash, web_*, mcp__*: need an allow rule, else `unmatched`
  never,      // the runner's own state (todo_write, ...): not subject to rules
};

/// One rule of a policy file: `allow:` or `deny:` (or `ask:`, which denies) a list of tools.
struct Rule {
  std::string id;
  Verdict verdict = Verdict::deny;
  bool ask = false;                 // written as `ask`: denied, "requires approval; no human in the loop"
  std::vector<std::string> tools;   // tool names
  std::string message;              // told to the model when this rule denies
  int line = 0;                     // where the rule starts in its file
};

/// An approval policy: the only boundary between a model and the machine.
struct Policy {
  std::filesystem::path source;     // empty for the built-in default
  std::string sha256;               // of the file's content
  Verdict unmatched = Verdict::deny;
  std::vector<Rule> rules;
};

/// Why a decision came out as it did.
enum class DecisionBasis { rule, approval_class, unmatched, protected_path };

/// The policy's answer for one tool call, recorded in the report whatever it is.
struct Decision {
  Verdict verdict = Verdict::deny;
  DecisionBasis basis = DecisionBasis::unmatched;
  std::string rule_id;   // the deciding rule, when basis == rule
  std::string reason;    // a sentence for the model and the report
};

/// The approval class of a tool name; unknown tools (MCP tools among them) need approval.
ApprovalClass approval_class(std::string_view tool_name);

/// Decides one tool call: the strictest matching rule wins (deny over allow), order does not matter.
Decision decide(const Policy& policy, const ToolCall& call);

/// The policy used when neither the task nor the command line names one: reads are allowed,
/// everything that needs approval is denied.
Policy builtin_policy();

const char* to_string(Verdict verdict);
const char* to_string(DecisionBasis basis);

}  // namespace agent_run
