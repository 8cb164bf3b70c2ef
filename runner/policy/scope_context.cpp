#include "policy/scope_context.h"

namespace agent_run {

DecisionContext decision_context(const ToolScope& scope) {
  DecisionContext context;
  context.workspace = scope.workspace;
  context.protected_paths = scope.protected_paths;
  context.sandboxed = scope.sandbox.has_value();
  return context;
}

}  // namespace agent_run
