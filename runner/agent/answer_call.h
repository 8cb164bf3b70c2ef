#pragma once

#include "base/clock.h"
#include "model/conversation.h"
#include "policy/policy.h"
#include "report/run_report.h"
#include "tools/tool_registry.h"

#include <string>

namespace agent_run {

/// One tool call answered as the agent answers it: what the policy decided, what the model reads,
/// and the report's record of it.
struct AnsweredCall {
  Decision decision;
  ToolOutput output;
  ToolCallRecord record;
};

/// Decides `call` with `policy` and, when it is allowed, runs the tool in `scope` and `session`
/// within `timeout`; a denial or an unknown tool becomes the result the model reads. The record (and the output's edit)
/// carry the call's turn and id. The one path every tool call takes, in the agent loop and in `agent-run tool`.
AnsweredCall answer_call(const ToolCall& call, int turn, const ToolRegistry& tools, const Policy& policy,
                         const Clock& clock, const ToolScope& scope, SessionState& session,
                         std::chrono::milliseconds timeout);

/// A short, one-line view of a tool call's input for reports.
std::string summarize_input(const ToolCall& call);

}  // namespace agent_run
