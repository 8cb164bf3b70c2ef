#pragma once

#include "policy/policy.h"

namespace agent_run {

/// Decides a bash call: a deny rule naming bash without matchers denies it outright; otherwise the
/// command is parsed (anything not understood is denied), every view of every simple command is
/// checked against protected paths and deny rules, and then every simple command must be allowed
/// on its own, by a rule or by `unmatched: allow`.
Decision decide_bash(const Policy& policy, const ToolCall& call, const DecisionContext& context);

/// True when `rule` alone decides the bash call its way (see rule_decides).
bool bash_rule_decides(const Rule& rule, const ToolCall& call, const DecisionContext& context);

}  // namespace agent_run
