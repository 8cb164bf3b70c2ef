#include "policy/scope_context.h"

#include "policy/path_classes.h"
#include "tools/tool_call.h"

namespace agent_run {

DecisionContext decision_context(const ToolScope& scope) {
  DecisionContext context;
  context.workspace = scope.workspace;
  context.protected_paths = scope.protected_paths;
  context.sandboxed = scope.sandbox != nullptr;
  context.survey = scope.survey;
  return context;
}

void bind_policy(const Policy& policy, ToolScope& scope) {
  std::error_code ec;
  std::filesystem::path root = std::filesystem::weakly_canonical(scope.workspace, ec);
  if (ec) root = scope.workspace;
  scope.hidden_rule = [&policy, root](std::string_view relative) {
    return walked_path_hidden_by(policy, relative, root);
  };
  const DecisionContext context = decision_context(scope);
  scope.web.fetch.approve_hop = [&policy, context](const std::string& url) -> Expected<void> {
    Decision decision = decide(policy, ToolCall{"hop", "web_fetch", Json::object().set("url", url)}, context);
    if (decision.verdict == Verdict::allow) return {};
    std::string by = decision.rule_id.empty() ? "" : " (rule '" + decision.rule_id + "')";
    return make_error("the policy denies it" + by + ": " + decision.reason);
  };
}

}  // namespace agent_run
