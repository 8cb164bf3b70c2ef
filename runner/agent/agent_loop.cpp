#include "agent/agent_loop.h"

#include "agent/answer_call.h"
#include "base/cancellation.h"

#include <cstdio>

namespace agent_run {

namespace {

/// Fills the limits into the status context_status reports.
void start_status(SessionStatus& status, const Limits& limits) {
  status.turns_limit = limits.turns;
  status.tokens_limit = limits.tokens;
  status.cost_limit_usd = limits.cost_usd;
  status.time_limit = limits.time;
}

/// Brings the status up to date after a model turn.
void update_status(SessionStatus& status, const AgentRecord& record, const Usage& last_turn) {
  status.turns_used = record.turns;
  status.tokens_used = record.usage.total_tokens();
  status.tokens_estimated = record.usage.estimated;
  status.cost_usd = record.usage.cost_usd;
  status.context_tokens =
      last_turn.input_tokens + last_turn.cache_read_input_tokens + last_turn.cache_creation_input_tokens;
}

AgentStop stop_of(StopReason reason) {
  switch (reason) {
    case StopReason::max_tokens: return AgentStop::model_max_tokens;
    case StopReason::refusal: return AgentStop::model_refusal;
    case StopReason::context_window: return AgentStop::model_context_window;
    case StopReason::end_turn:
    case StopReason::tool_use: break;
  }
  return AgentStop::end_turn;
}

}  // namespace

std::string system_prompt() {
  return "You are a coding agent running non-interactively in CI. You work in a workspace folder; every "
         "path is relative to it. No human is watching: do not wait for approval, and when a tool call is "
         "denied, read the reason and carry on another way. When the task is done, say so briefly and stop "
         "calling tools.";
}

AgentLoop::AgentLoop(ModelClient& model, const ToolRegistry& tools, const Policy& policy, const Clock& clock,
                     std::vector<AgentObserver*> observers)
    : m_model(model), m_tools(tools), m_policy(policy), m_clock(clock), m_observers(std::move(observers)),
      m_schemas(tools.schemas()) {}

AgentRun AgentLoop::run(const std::string& prompt, const Limits& limits, const ToolScope& scope, SessionState& session,
                        AgentRecord& record) {
  AgentRun run;
  const Clock::SteadyTime deadline = m_clock.now() + limits.time;
  start_status(session.status, limits);
  Conversation conversation{system_prompt(), {Message{Role::user, prompt, {}, {}}}};
  notify([&](AgentObserver& o) { o.started(conversation, m_schemas); });
  m_model.set_deadline(deadline);
  for (;;) {
    if (scope.cancellation && scope.cancellation->cancelled()) {
      record.stop_reason = AgentStop::interrupted;
      run.message = "the run was interrupted";
      break;
    }
    if (auto limit = limit_reached(record, limits, deadline)) {
      record.stop_reason = *limit;
      break;
    }
    auto turn = ask_model(conversation, record, run);
    if (!turn) {
      const bool interrupted = scope.cancellation && scope.cancellation->cancelled();
      record.stop_reason = interrupted                 ? AgentStop::interrupted
                           : m_clock.now() >= deadline ? AgentStop::limit_time
                                                       : AgentStop::model_error;
      run.message = interrupted ? "the run was interrupted during a model call" : turn.error().message;
      break;
    }
    conversation.messages.push_back(turn->message);
    if (turn->message.tool_calls.empty() || turn->stop_reason == StopReason::max_tokens) {
      record.stop_reason = stop_of(turn->stop_reason);
      run.final_text = turn->message.text;
      if (!turn->truncated_call.empty()) {
        run.message = "the model's answer was cut at its output token limit in the middle of a call to " +
                      turn->truncated_call + "; the call was not run";
      }
      break;
    }
    update_status(session.status, record, turn->usage);
    conversation.messages.push_back(
        answer_tool_calls(turn->message.tool_calls, scope, session, limits, deadline, record, run));
    if (record.stop_reason) break;  // a tool ended the attempt (ask_user with `otherwise: fail`)
  }
  note_unenforced_cost_limit(record, limits);
  notify([&](AgentObserver& o) { o.stop(*record.stop_reason, run.message); });
  return run;
}

void AgentLoop::note_unenforced_cost_limit(AgentRecord& record, const Limits& limits) const {
  if (!limits.cost_usd || record.usage.cost_usd) return;
  char limit[32];
  std::snprintf(limit, sizeof limit, "%.2f", *limits.cost_usd);
  record.warnings.push_back(std::string("limits.cost_usd ($") + limit + ") was not enforced: the cost of " +
                            m_model.model_name() + " is unknown (no price for it in the price table)");
}

std::optional<AgentStop> AgentLoop::limit_reached(const AgentRecord& record, const Limits& limits,
                                                  Clock::SteadyTime deadline) const {
  if (record.turns >= limits.turns) return AgentStop::limit_turns;
  if (m_clock.now() >= deadline) return AgentStop::limit_time;
  if (limits.tokens && record.usage.total_tokens() >= *limits.tokens) return AgentStop::limit_tokens;
  if (limits.cost_usd && record.usage.cost_usd && *record.usage.cost_usd >= *limits.cost_usd) {
    return AgentStop::limit_cost;
  }
  return std::nullopt;
}

Expected<ModelTurn> AgentLoop::ask_model(const Conversation& conversation, AgentRecord& record, AgentRun& run) {
  notify([&](AgentObserver& o) { o.request(record.turns + 1, m_model.model_name(), conversation); });
  const Clock::SteadyTime started = m_clock.now();
  auto turn = m_model.complete(conversation, m_schemas);
  ModelCallRecord call = m_model.last_call();
  call.turn = record.turns + 1;
  call.duration_ms = elapsed_ms(started, m_clock.now());
  run.model_ms += call.duration_ms;
  if (turn) {
    ++record.turns;
    record.usage += turn->usage;
    call.stop_reason = to_string(turn->stop_reason);
    call.usage = turn->usage;
    notify([&](AgentObserver& o) { o.turn(record.turns, *turn, call); });
  } else {
    call.error = turn.error().message;
    call.usage = Usage::zero();
    notify([&](AgentObserver& o) { o.model_error(call); });
  }
  record.model_calls.push_back(std::move(call));
  return turn;
}

Message AgentLoop::answer_tool_calls(const std::vector<ToolCall>& calls, const ToolScope& scope, SessionState& session,
                                     const Limits& limits, Clock::SteadyTime deadline, AgentRecord& record,
                                     AgentRun& run) {
  Message answers{Role::user, {}, {}, {}};
  for (const ToolCall& call : calls) {
    if (record.stop_reason) {
      answers.tool_results.push_back(ToolResult{call.id, "Not run: the attempt has ended.", true});
      continue;
    }
    auto remaining = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - m_clock.now());
    auto timeout = std::max(std::chrono::milliseconds(1), std::min(limits.tool_timeout, remaining));
    session.status.elapsed = limits.time - remaining;
    answers.tool_results.push_back(answer_tool_call(call, scope, session, timeout, record, run));
  }
  return answers;
}

ToolResult AgentLoop::answer_tool_call(const ToolCall& call, const ToolScope& scope, SessionState& session,
                                       std::chrono::milliseconds timeout, AgentRecord& record, AgentRun& run) {
  AnsweredCall answered = answer_call(call, record.turns, m_tools, m_policy, m_clock, scope, session, timeout);
  run.tools_ms += answered.record.duration_ms;
  ToolOutput& output = answered.output;
  if (output.ends_attempt) {
    record.stop_reason = output.ends_attempt->stop;
    run.message = output.ends_attempt->message;
  }
  if (output.edit) record.edits.push_back(std::move(*output.edit));
  record.tool_calls.push_back(answered.record);
  ToolResult result{call.id, std::move(output.content), output.is_error, std::move(output.images)};
  notify([&](AgentObserver& o) { o.tool_result(call, answered.record, result); });
  return result;
}

}  // namespace agent_run
