#include "agent/answer_call.h"

#include "policy/scope_context.h"
#include "policy/tool_names.h"

namespace agent_run {

std::string summarize_input(const ToolCall& call) {
  constexpr std::size_t k_max_summary = 200;
  std::string summary;
  const Json* path = call.input.find("path");
  const bool has_path = path && path->is_string();
  if (const Json* command = call.input.find("command"); command && command->is_string()) {
    summary = command->as_string();
  } else if (const Json* pattern = call.input.find("pattern"); pattern && pattern->is_string()) {
    summary = pattern->as_string() + (has_path ? " in " + path->as_string() : "");
  } else if (has_path) {
    summary = path->as_string();
  } else if (const Json* uri = call.input.find("uri"); uri && uri->is_string()) {  // an MCP resource's
    summary = uri->as_string();
  } else {
    summary = call.input.dump();
  }
  for (char& c : summary) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  return summary.size() > k_max_summary ? summary.substr(0, k_max_summary) + "..." : summary;
}

AnsweredCall answer_call(const ToolCall& call, int turn, const ToolRegistry& tools, const Policy& policy,
                         const Clock& clock, const ToolScope& scope, SessionState& session,
                         std::chrono::milliseconds timeout) {
  AnsweredCall answered;
  answered.decision = decide(policy, call, decision_context(scope));
  const Decision& decision = answered.decision;
  answered.record = ToolCallRecord{turn,
                                   call.id,
                                   call.name,
                                   summarize_input(call),
                                   to_string(decision.verdict),
                                   to_string(decision.basis),
                                   decision.rule_id,
                                   decision.reason};
  Tool* tool = tools.find(call.name);
  if (decision.verdict == Verdict::deny) {
    std::string by = decision.rule_id.empty() ? "" : " by rule '" + decision.rule_id + "'";
    answered.output = ToolOutput{"Denied" + by + ": " + decision.reason + ". The call was not run.", true, {}, {}};
  } else if (tool == nullptr) {
    // A tool of a server that did not start says so, and why, rather than that it never existed.
    std::optional<std::string> why = tools.unavailable_because(call.name);
    answered.output =
        ToolOutput{why ? "The tool '" + call.name + "' is unavailable: " + *why + ". The call was not run."
                       : "There is no tool named '" + call.name + "' in this task. The call was not run.",
                   true, {}, {}};
  } else {
    const Clock::SteadyTime started = clock.now();
    answered.output = tool->run(call.input, scope, session, timeout);
    answered.record.duration_ms = elapsed_ms(started, clock.now());
  }
  answered.record.result_bytes = answered.output.content.size();
  for (const ImageBlock& image : answered.output.images) answered.record.result_bytes += image.data_base64.size();
  answered.record.is_error = answered.output.is_error;
  answered.record.error = answered.output.error;
  if (auto mcp = parse_mcp_name(call.name)) {
    answered.record.mcp_server = mcp->server;
    answered.record.mcp_tool = mcp->tool;
  }
  if (answered.output.edit) {
    answered.output.edit->turn = turn;
    answered.output.edit->tool_call_id = call.id;
    answered.output.edit->tool = call.name;
  }
  return answered;
}

}  // namespace agent_run
