#pragma once

#include "policy/policy.h"

#include <optional>
#include <string>
#include <string_view>

namespace agent_run {

/// Decides a bash call that runs inside the sandbox under `sandboxed_bash: allow`: the kernel
/// confines what it does, so any shell is allowed (globs, loops, substitutions, here-documents,
/// `&`, `VAR=value`) unless a deny rule for bash with no matchers denies every call, or the
/// command's text cannot be read (control characters, invisible Unicode, over the length limit),
/// or a part that the part parser finds (policy/shell_parts) names a protected path, matches a deny
/// rule, or holds a word too long to check. Allow rules and `unmatched` do not apply.
Decision decide_sandboxed_bash(const Policy& policy, const ToolCall& call, const DecisionContext& context);

/// The plan-time check for a sandbox turned off by a task, a configuration or a flag while its
/// policy says `sandboxed_bash: allow` and its `unmatched` is not deny (without the sandbox, every
/// command no rule names would run: permissive.yaml); a policy with `unmatched: deny` (default.yaml)
/// falls back to its rules instead. The error to print, naming `turned_off_by` (for example "tasks/t.yaml:9:10: 'sandbox: off'" or
/// "'--sandbox off'") and the policy's line; nullopt when the policy does not need the sandbox.
std::optional<std::string> sandbox_off_problem(const Policy& policy, std::string_view turned_off_by);

}  // namespace agent_run
