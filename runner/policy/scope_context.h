#pragma once

#include "policy/policy.h"
#include "tools/tool.h"

namespace agent_run {

/// The context the policy decides a call in when the tools of `scope` would run it: the scope's
/// workspace and protected paths, and whether its commands run inside the sandbox. The one
/// place that turns what the tools may read into what the policy needs (a run and `agent-run tool`).
DecisionContext decision_context(const ToolScope& scope);

}  // namespace agent_run
