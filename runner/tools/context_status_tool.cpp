#include "base/duration.h"
#include "report/figures.h"
#include "tools/builtin_tools.h"
#include "tools/tool_input.h"

namespace agent_run {

namespace {

std::string context_line(const SessionStatus& status) {
  std::string used = std::to_string(status.context_tokens);
  if (!status.context_window || *status.context_window <= 0) {
    return "context: " + used + " tokens in the last request; the model's window is not known";
  }
  long long percent = status.context_tokens * 100 / *status.context_window;
  return "context: " + used + " of " + std::to_string(*status.context_window) + " tokens (" + std::to_string(percent) +
         "%) in the last request";
}

std::string tokens_line(const SessionStatus& status) {
  std::string line = "tokens: " + std::to_string(status.tokens_used) + " used";
  if (status.tokens_limit) {
    line += " of " + std::to_string(*status.tokens_limit) + ", " +
            std::to_string(std::max<std::int64_t>(0, *status.tokens_limit - status.tokens_used)) + " left";
  } else {
    line += "; no token limit";
  }
  return line + (status.tokens_estimated ? " (estimated)" : "");
}

std::string cost_line(const SessionStatus& status) {
  if (!status.cost_usd) return "cost: unknown (no price for this model)";
  std::string line = "cost: " + dollars(*status.cost_usd);
  return line + (status.cost_limit_usd ? " of " + dollars(*status.cost_limit_usd) : "; no cost limit");
}

/// How full the context window is, how many turns are used and left, and what they cost.
class ContextStatusTool final : public Tool {
 public:
  ToolSchema schema() const override {
    return ToolSchema{"context_status",
                      "How full the context window is, how many turns are used and left, and the tokens, cost and "
                      "time used so far against the task's limits.",
                      object_schema(Json::object(), {})};
  }

  ToolOutput run(const Json&, const ToolScope&, SessionState& session, std::chrono::milliseconds) override {
    const SessionStatus& status = session.status;
    int turns_left = std::max(0, status.turns_limit - status.turns_used);
    std::string text = context_line(status) + "\n";
    text += "turns: " + std::to_string(status.turns_used) + " used of " + std::to_string(status.turns_limit) + ", " +
            std::to_string(turns_left) + " left\n";
    text += tokens_line(status) + "\n";
    text += cost_line(status) + "\n";
    text += "time: " + format_duration(status.elapsed) + " of " + format_duration(status.time_limit) + "\n";
    return ToolOutput{text, false, std::nullopt};
  }
};

}  // namespace

std::unique_ptr<Tool> make_context_status_tool() { return std::make_unique<ContextStatusTool>(); }

}  // namespace agent_run
