#pragma once

#include "policy/policy.h"
#include "tools/tool.h"

#include <functional>
#include <string>
#include <string_view>

namespace agent_run {

/// The context the policy decides a call in when the tools of `scope` would run it: the scope's
/// workspace, protected paths and survey, and whether its commands run inside the sandbox. The one
/// place that turns what the tools may read into what the policy needs (a run and `agent-run tool`).
DecisionContext decision_context(const ToolScope& scope);

/// Gives the tools of `scope` what they need of `policy` to keep to it while they run (make_tool_scope
/// calls it once the scope is filled; `policy` must outlive the scope):
///   - ToolScope::hidden_rule: the id of the deny rule that hides a workspace-relative path as a walk
///     meets it (no symlink in it, so matched without looking at the disk), or "": grep and glob leave it out;
///   - web_fetch's approve_hop: every URL of a fetch, each redirect's included, decided by the
///     policy's rules as a web_fetch call of its own (the one URL parser, net/web_url, reads it).
void bind_policy(const Policy& policy, ToolScope& scope);

}  // namespace agent_run
