#include "agent/agent_loop.h"

#include "agent/transcript_events.h"
#include "report/transcript_writer.h"

namespace agent_run {

namespace {

/// A short, one-line view of a tool call's input for reports.
std::string summarize_input(const ToolCall& call) {
  constexpr std::size_t k_max_summary = 200;
  std::string summary;
  if (const Json* command = call.input.find("command"); command && command->is_string()) {
    summary = command->as_string();
  } else if (const Json* path = call.input.find("path"); path && path->is_string()) {
    summary = path->as_string();
  } else {
    summary = call.input.dump();
  }
  for (char& c : summary) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  return summary.size() > k_max_summary ? summary.substr(0, k_max_summary) + "..." : summary;
}

std::string stop_of(StopReason reason) {
  switch (reason) {
    case StopReason::max_tokens: return "model.max_tokens";
    case StopReason::refusal: return "model.refusal";
    case StopReason::context_window: return "model.context_window";
    default: return "end_turn";
  }
}

}  // namespace

std::string system_prompt() {
  return "You are a coding agent running non-interactively in CI. You work in a workspace folder; every "
         "path is relative to it. No human is watching: do not wait for approval, and when a tool call is "
         "denied, read the reason and carry on another way. When the task is done, say so briefly and stop "
         "calling tools.";
}

AgentLoop::AgentLoop(ModelClient& model, const ToolRegistry& tools, const Policy& policy, const Clock& clock,
                     TranscriptWriter* transcript)
    : m_model(model), m_tools(tools), m_policy(policy), m_clock(clock), m_transcript(transcript),
      m_schemas(tools.schemas()) {}

AgentRun AgentLoop::run(const std::string& prompt, const Limits& limits, ToolContext& context) {
  AgentRun run;
  const Clock::SteadyTime deadline = m_clock.now() + limits.time;
  Conversation conversation{system_prompt(), {Message{Role::user, prompt, {}, {}}}};
  record(prompt_event(conversation, m_schemas));
  for (;;) {
    if (auto limit = limit_reached(run, limits, deadline)) {
      run.stop = *limit;
      break;
    }
    auto turn = ask_model(conversation, run);
    if (!turn) {
      run.stop = "model.error";
      run.message = turn.error().message;
      break;
    }
    conversation.messages.push_back(turn->message);
    if (turn->message.tool_calls.empty() || turn->stop_reason == StopReason::max_tokens) {
      run.stop = stop_of(turn->stop_reason);
      run.final_text = turn->message.text;
      break;
    }
    conversation.messages.push_back(answer_tool_calls(turn->message.tool_calls, run, context, limits, deadline));
  }
  record(stop_event(run.stop, run.message));
  return run;
}

std::optional<std::string> AgentLoop::limit_reached(const AgentRun& run, const Limits& limits,
                                                    Clock::SteadyTime deadline) const {
  if (run.turns >= limits.turns) {
    return "limit.turns";
  }
  if (m_clock.now() >= deadline) {
    return "limit.time";
  }
  if (limits.tokens && run.usage.total_tokens() >= *limits.tokens) {
    return "limit.tokens";
  }
  if (limits.cost_usd && run.usage.cost_usd && *run.usage.cost_usd >= *limits.cost_usd) {
    return "limit.cost";
  }
  return std::nullopt;
}

Expected<ModelTurn> AgentLoop::ask_model(const Conversation& conversation, AgentRun& run) {
  const Clock::SteadyTime started = m_clock.now();
  auto turn = m_model.complete(conversation, m_schemas);
  run.model_ms += elapsed_ms(started, m_clock.now());
  if (turn) {
    ++run.turns;
    run.usage += turn->usage;
    record(response_event(run.turns, *turn));
  }
  return turn;
}

Message AgentLoop::answer_tool_calls(const std::vector<ToolCall>& calls, AgentRun& run, ToolContext& context,
                                     const Limits& limits, Clock::SteadyTime deadline) {
  Message answers{Role::user, {}, {}, {}};
  for (const ToolCall& call : calls) {
    auto remaining = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - m_clock.now());
    context.timeout = std::max(std::chrono::milliseconds(1), std::min(limits.tool_timeout, remaining));
    answers.tool_results.push_back(answer_tool_call(call, run, context));
  }
  return answers;
}

ToolResult AgentLoop::answer_tool_call(const ToolCall& call, AgentRun& run, ToolContext& context) {
  const Decision decision = decide(m_policy, call);
  ToolCallRecord record_of_call{run.turns, call.id, call.name, summarize_input(call), to_string(decision.verdict),
                                to_string(decision.basis), decision.rule_id, decision.reason};
  ToolOutput output;
  Tool* tool = m_tools.find(call.name);
  if (decision.verdict == Verdict::deny) {
    std::string by = decision.rule_id.empty() ? "" : " by rule '" + decision.rule_id + "'";
    output = ToolOutput{"Denied" + by + ": " + decision.reason + ". The call was not run.", true, {}};
  } else if (tool == nullptr) {
    output = ToolOutput{"There is no tool named '" + call.name + "' in this task. The call was not run.", true, {}};
  } else {
    const Clock::SteadyTime started = m_clock.now();
    output = tool->run(call.input, context);
    record_of_call.duration_ms = elapsed_ms(started, m_clock.now());
    run.tools_ms += record_of_call.duration_ms;
  }
  record_of_call.result_bytes = output.content.size();
  record_of_call.is_error = output.is_error;
  if (output.edit) {
    run.edits.push_back(EditRecord{run.turns, call.id, call.name, output.edit->path, output.edit->lines_added,
                                   output.edit->lines_removed});
    run.edits.back().diagnostics = output.edit->diagnostics;
  }
  run.tool_calls.push_back(record_of_call);
  ToolResult result{call.id, output.content, output.is_error};
  record(tool_result_event(call, record_of_call, result));
  return result;
}

void AgentLoop::record(const Json& event) {
  if (m_transcript) m_transcript->record(event);
}

}  // namespace agent_run
