#pragma once

#include "base/json.h"
#include "exec/mount_survey.h"
#include "exec/sandbox.h"
#include "policy/path_pattern.h"
#include "policy/regex_pattern.h"
#include "tools/tool_table.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agent_run {

struct ToolCall;

enum class Verdict { allow, deny };

/// How a rule's `options` read the words after its argv_prefix (`option_syntax:`).
enum class OptionSyntax {
  getopt,  // GNU getopt_long, argparse, git, npm: `--long` abbreviated to any prefix, `-x` in a cluster (`-abx`)
  go,      // Go's flag package: `-name`, `--name`, `-name=v`, `--name=v`, no abbreviations, no clusters
};

/// Which words after the argv_prefix a rule's `options` look at (`options_scan:`).
enum class OptionsScan {
  all,      // every word, those after `--` too
  leading,  // the words before the first one that is not an option (git's global options, before the subcommand)
};

/// Whether the policy lets the sandbox confine bash (`sandboxed_bash:`).
enum class SandboxedBash {
  rules,  // bash is decided by the rules, with the sandbox on or off
  allow,  // with the sandbox on, a command is allowed unless a deny rule or protected path names one of its parts
};

/// One of a rule's `examples`: a call it must (or must not) decide, checked when the policy loads.
struct RuleExample {
  bool should_match = true;
  std::string text;  // a command, path, URL or tool name, tried on each tool of the rule
  std::string tool;  // set instead of `text` for the `{tool: NAME, input: {...}}` form
  Json input = Json::object();
  int line = 0;
  int column = 0;
};

/// One rule of a policy file: `allow:`, `deny:` or `ask:` (which denies) some tools, narrowed by
/// matchers. Every matcher present must match; a rule without matchers matches every call.
struct Rule {
  std::string id;
  Verdict verdict = Verdict::deny;
  bool ask = false;                // written as `ask`: denied, "requires approval; no human in the loop"
  std::vector<std::string> tools;  // built-in names, or MCP patterns such as mcp__github__get_*
  std::string message;             // told to the model when this rule denies
  int line = 0;                    // where the rule starts in its file
  std::string origin;              // the policy it comes from when not the file's own (`extends:`):
                                   // "stock policy 'default'" or the base file's path; empty: its own
  std::vector<PathPattern> paths;  // file tools: the path; bash (deny only): every argument
  std::vector<std::vector<std::string>> argv_prefix;  // bash: leading words; each holds alternatives
  std::vector<RegexPattern> argv_regex;               // bash: one RE2 full match per word
  bool argv_regex_any_tail = false;                   // argv_regex ended with `...`
  std::vector<std::string> options;  // bash deny rules with argv_prefix: any of these options after the prefix
  OptionSyntax option_syntax = OptionSyntax::getopt;
  OptionsScan options_scan = OptionsScan::all;
  std::vector<std::string> redirects;  // bash allow rules: redirection targets allowed (`/dev/null`, `&1`)
  std::vector<std::string> hosts;      // web_fetch: exact hosts, `*.domain` or `*`
  std::vector<std::string> schemes;    // web_fetch: default https in allow rules, any in deny rules
  std::vector<int> ports;              // web_fetch: default the scheme's own in allow rules, any in deny rules
  std::vector<RuleExample> examples;
};

/// An approval policy: the only boundary between a model and the machine.
struct Policy {
  std::filesystem::path source;  // empty for the built-in default
  std::string sha256;            // of the file's content (and of what it extends)
  std::vector<std::string> bases;  // what it extends, nearest first, as Rule::origin names them
  Verdict unmatched = Verdict::deny;
  std::vector<Rule> rules;
  std::optional<SandboxSpec> sandbox;  // `sandbox:`: bash and background processes inside bubblewrap,
                                       // unless the task has its own `sandbox:`, which wins
  SandboxedBash sandboxed_bash = SandboxedBash::rules;
  int sandboxed_bash_line = 0;  // where `sandboxed_bash:` is written; 0 when it is not
};

/// Where a call would act: what the policy needs beyond the call to decide it.
struct DecisionContext {
  std::filesystem::path workspace;  // paths resolve here and bash runs here; empty: a virtual /workspace
  std::vector<std::filesystem::path> protected_paths;  // never written, besides .git/ and the policy file
  bool sandboxed = false;  // the call's commands run inside the attempt's sandbox (bubblewrap), not in the runner
  const Survey* survey = nullptr;  // what the policy hides, by path and by file (exec/mount_survey); null: none made.
                                   // Sandboxed with a survey: the kernel masks what it hides (the mount plan's)
};

/// Why a decision came out as it did.
enum class DecisionBasis { rule, approval_class, unmatched, protected_path, not_understood, sandboxed };

/// The policy's answer for one tool call, recorded in the report whatever it is.
struct Decision {
  Verdict verdict = Verdict::deny;
  DecisionBasis basis = DecisionBasis::unmatched;
  std::string rule_id;             // the deciding rule(s), comma-separated, when basis == rule
  std::string reason;              // a sentence for the model and the report
  std::vector<std::string> steps;  // how it was reached, one line each, for `policy explain`
};

/// The approval class of a tool name, from the tool table; unknown tools (MCP tools among them) need approval.
ApprovalClass approval_class(std::string_view tool_name);

/// Decides one tool call: a protected path or a command that cannot be checked denies; then the
/// strictest matching rule wins (deny over allow) wherever it stands; then the approval class and
/// the policy's `unmatched`.
Decision decide(const Policy& policy, const ToolCall& call, const DecisionContext& context);

/// True when `rule`, alone, decides `call` its way: an allow rule would allow it (for bash: every
/// command of it), a deny rule would deny it. What a rule's examples are checked against.
bool rule_decides(const Rule& rule, const ToolCall& call, const DecisionContext& context);

/// The id of the deny rule whose `paths` match `path` for `tool_name`, if any: for tools that
/// search folders (glob, grep) to leave out what the policy hides.
std::optional<std::string> path_denied_by(const Policy& policy, std::string_view tool_name, std::string_view path,
                                          const DecisionContext& context);

/// The policy used when neither the task nor the command line names one: reads are allowed,
/// everything that needs approval is denied.
Policy builtin_policy();

const char* to_string(Verdict verdict);
const char* to_string(DecisionBasis basis);

}  // namespace agent_run
