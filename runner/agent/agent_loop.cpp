#include "agent/agent_loop.h"

#include "agent/answer_call.h"
#include "agent/finish_review.h"
#include "agent/loop_run.h"
#include "agent/system_prompt.h"
#include "base/cancellation.h"
#include "base/redaction.h"
#include "tools/diagnostics_hook.h"
#include "tools/tool_updates.h"

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

/// Bytes of what every request carries besides the messages: the system prompt and tool schemas.
std::size_t fixed_bytes(const std::string& system, const std::vector<ToolSchema>& tools) {
  std::size_t bytes = system.size();
  for (const ToolSchema& tool : tools)
    bytes += tool.name.size() + tool.description.size() + tool.input_schema.dump().size();
  return bytes;
}

/// Adds `text` to the conversation's last user message (tool results, or the prompt).
void add_to_last_user_message(Conversation& conversation, const std::string& text) {
  if (conversation.messages.empty() || conversation.messages.back().role != Role::user) {
    conversation.messages.push_back(Message{Role::user, text, {}, {}, {}});
    return;
  }
  std::string& last = conversation.messages.back().text;
  last += (last.empty() ? "" : "\n\n") + text;
}

}  // namespace

AgentLoop::AgentLoop(ModelClient& model, const ToolRegistry& tools, const Policy& policy, const Clock& clock,
                     std::vector<AgentObserver*> observers)
    : m_model(model), m_tools(tools), m_policy(policy), m_clock(clock), m_observers(std::move(observers)),
      m_schemas(tools.schemas()) {}

AgentRun AgentLoop::run(const AgentRequest& request, const ToolScope& scope, SessionState& session,
                        AgentRecord& record) {
  const LoopParts parts{m_model, m_tools, m_policy, m_clock, m_observers, m_schemas, m_updates};
  return LoopRun(parts, request, scope, session, record).run();
}

AgentRun AgentLoop::run(const std::string& prompt, const Limits& limits, const ToolScope& scope, SessionState& session,
                        AgentRecord& record) {
  AgentRequest request;
  request.system_prompt = headless_rules();
  request.prompt = prompt;
  request.limits = limits;
  return run(request, scope, session, record);
}

LoopRun::LoopRun(const LoopParts& parts, const AgentRequest& request, const ToolScope& scope, SessionState& session,
                 AgentRecord& record)
    : m_parts(parts), m_request(request), m_scope(scope), m_session(session),
      m_record(record), m_schemas(parts.schemas), m_conversation{request.system_prompt, {Message{Role::user, request.prompt, {}, {}, {}}}},
      m_context(request.context, parts.model.context_window(), fixed_bytes(request.system_prompt, parts.schemas)),
      m_notice(request.notice), m_started(parts.clock.now()), m_deadline(m_started + request.limits.time) {}

AgentRun LoopRun::run() {
  start();
  while (!m_record.stop_reason) {
    if (stopped_before_turn()) break;
    refresh_tools();
    send_notice_if_due();
    if (!make_room()) break;  // it stopped the attempt: nothing more would fit
    auto turn = ask_model(m_conversation, false);
    if (!turn) {
      stop_on_model_error(turn.error());
      break;
    }
    if (turn->stop_reason == StopReason::context_window) {
      if (!learn_refusal(*turn)) break;
      continue;  // with room made, the same turn is asked again
    }
    m_refusals_in_a_row = 0;
    m_conversation.messages.push_back(turn->message);
    if (!turn->message.text.empty()) {  // the agent's last words: the text of its last turn that had any
      m_run.final_text = turn->message.text;
      m_record.final_message = turn->message.text;
    }
    if (turn->message.tool_calls.empty() || turn->stop_reason == StopReason::max_tokens) {
      finish(*turn);  // stops, or sends the work back for another round
      continue;
    }
    update_status(m_session.status, m_record, turn->usage);
    m_conversation.messages.push_back(answer_tool_calls(turn->message.tool_calls));
  }
  end();
  return m_run;
}

void LoopRun::start() {
  start_status(m_session.status, m_request.limits);
  m_record.context.window = m_context.window();
  notify([&](AgentObserver& o) { o.started(m_conversation, m_schemas); });
  m_parts.model.set_deadline(m_deadline);
}

bool LoopRun::cancelled() const { return m_scope.cancellation && m_scope.cancellation->cancelled(); }

std::chrono::milliseconds LoopRun::elapsed() const {
  return std::chrono::duration_cast<std::chrono::milliseconds>(m_parts.clock.now() - m_started);
}

bool LoopRun::stopped_before_turn() {
  if (cancelled()) {
    stop(AgentStop::interrupted, "the run was interrupted");
    return true;
  }
  if (auto limit = limit_reached()) {
    stop(*limit, "");
    return true;
  }
  return false;
}

std::optional<AgentStop> LoopRun::limit_reached() const {
  const Limits& limits = m_request.limits;
  if (m_record.turns >= limits.turns) return AgentStop::limit_turns;
  if (m_parts.clock.now() >= m_deadline) return AgentStop::limit_time;
  if (limits.tokens && m_record.usage.total_tokens() >= *limits.tokens) return AgentStop::limit_tokens;
  if (limits.cost_usd && m_record.usage.cost_usd && *m_record.usage.cost_usd >= *limits.cost_usd) {
    return AgentStop::limit_cost;
  }
  return std::nullopt;
}

/// The tools changed since the last request (an MCP server listed again after list_changed): the
/// next request offers the registry's tools as they are now, and the transcript says what changed.
void LoopRun::refresh_tools() {
  if (!m_parts.updates) return;
  std::vector<ToolsChange> changes = m_parts.updates->update();
  if (changes.empty()) return;
  m_schemas = m_parts.tools.schemas();
  m_context.set_fixed_bytes(fixed_bytes(m_request.system_prompt, m_schemas));
  const int next_turn = m_record.turns + 1;
  notify([&](AgentObserver& o) { o.tools_changed(next_turn, changes, m_schemas); });
}

void LoopRun::send_notice_if_due() {
  const int next_turn = m_record.turns + 1;
  auto notice = m_notice.due(next_turn, m_request.limits, m_record, elapsed());
  if (!notice) return;
  add_to_last_user_message(m_conversation, *notice);
  m_context.recount_last(m_conversation);
  notify([&](AgentObserver& o) { o.notice(next_turn, *notice); });
}

Expected<ModelTurn> LoopRun::ask_model(const Conversation& conversation, bool compaction) {
  const int turn_number = m_record.turns + 1;
  if (!compaction) {
    m_context.sending(conversation);
    const std::int64_t size = m_context.size();
    notify([&](AgentObserver& o) { o.request(turn_number, m_parts.model.model_name(), conversation, size); });
  }
  const Clock::SteadyTime started = m_parts.clock.now();
  auto turn = m_parts.model.complete(conversation, m_schemas);
  ModelCallRecord call = m_parts.model.last_call();
  call.turn = turn_number;
  call.purpose = compaction ? "compaction" : "turn";
  call.duration_ms = elapsed_ms(started, m_parts.clock.now());
  m_run.model_ms += call.duration_ms;
  if (turn) {
    const bool refused = turn->stop_reason == StopReason::context_window && turn->usage.total_tokens() == 0;
    if (!compaction && !refused) ++m_record.turns;
    m_record.usage += turn->usage;
    call.stop_reason = to_string(turn->stop_reason);
    call.usage = turn->usage;
    const Usage& usage = turn->usage;
    if (!compaction && !usage.estimated) {
      m_context.measured(usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens);
    }
    if (!compaction) notify([&](AgentObserver& o) { o.turn(turn_number, *turn, call); });
  } else {
    call.error = turn.error().message;
    call.usage = Usage::zero();
    notify([&](AgentObserver& o) { o.model_error(call); });
  }
  m_record.model_calls.push_back(std::move(call));
  return turn;
}

void LoopRun::stop_on_model_error(const Error& error) {
  if (cancelled()) return stop(AgentStop::interrupted, "the run was interrupted during a model call");
  stop(m_parts.clock.now() >= m_deadline ? AgentStop::limit_time : AgentStop::model_error, error.message);
}

/// The model ended its turn: each review looks at the work; the first that does not accept decides
/// whether it goes back to the agent or the attempt ends.
void LoopRun::finish(const ModelTurn& turn) {
  if (turn.stop_reason == StopReason::max_tokens || turn.stop_reason == StopReason::refusal) {
    std::string message;
    if (!turn.truncated_call.empty()) {
      message = "the model's answer was cut at its output token limit in the middle of a call to " +
                turn.truncated_call + "; the call was not run";
    }
    return stop(stop_of(turn.stop_reason), message);
  }
  const ReviewContext context{m_record.turns, !limit_reached().has_value() && !cancelled()};
  for (FinishReview* review : m_request.reviews) {
    ReviewVerdict verdict = review->review(turn.message.text, context, m_record);
    if (verdict.kind == ReviewVerdict::Kind::accept) continue;
    if (verdict.kind == ReviewVerdict::Kind::end_attempt) return stop(verdict.stop, verdict.message);
    // The checks of a review may change files (a formatter, generated code): the warm language
    // servers learn of it now, while the model reads the feedback, as after a bash command.
    if (review->may_change_files()) tell_diagnostics_of_changes(m_scope);
    const std::string message = redact_values(verdict.message, m_request.secret_values);
    if (review->name() == "checks") m_last_feedback = message;
    m_conversation.messages.push_back(Message{Role::user, message, {}, {}, {}});
    notify([&](AgentObserver& o) { o.sent_back(context.turn, review->name(), message); });
    return;
  }
  stop(AgentStop::end_turn, "");
}

Message LoopRun::answer_tool_calls(const std::vector<ToolCall>& calls) {
  Message answers{Role::user, {}, {}, {}, {}};
  for (const ToolCall& call : calls) {
    if (m_record.stop_reason) {
      answers.tool_results.push_back(ToolResult{call.id, "Not run: the attempt has ended.", true, {}});
      continue;
    }
    auto remaining = std::chrono::duration_cast<std::chrono::milliseconds>(m_deadline - m_parts.clock.now());
    auto timeout = std::max(std::chrono::milliseconds(1), std::min(m_request.limits.tool_timeout, remaining));
    m_session.status.elapsed = m_request.limits.time - remaining;
    answers.tool_results.push_back(answer_tool_call(call, timeout));
  }
  return answers;
}

ToolResult LoopRun::answer_tool_call(const ToolCall& call, std::chrono::milliseconds timeout) {
  AnsweredCall answered =
      answer_call(call, m_record.turns, m_parts.tools, m_parts.policy, m_parts.clock, m_scope, m_session, timeout);
  m_run.tools_ms += answered.record.duration_ms;
  ToolOutput& output = answered.output;
  if (output.ends_attempt) stop(output.ends_attempt->stop, output.ends_attempt->message);
  if (output.edit) m_record.edits.push_back(std::move(*output.edit));
  m_record.tool_calls.push_back(answered.record);
  // A secret's value never reaches the model, even when a file or a command printed it.
  ToolResult result{call.id, redact_values(std::move(output.content), m_request.secret_values), output.is_error,
                    std::move(output.images)};
  notify([&](AgentObserver& o) { o.tool_result(call, answered.record, result); });
  return result;
}

void LoopRun::stop(AgentStop stop, std::string message) {
  if (m_record.stop_reason) return;  // the first stop wins
  m_record.stop_reason = stop;
  m_run.message = std::move(message);
}

void LoopRun::end() {
  const Limits& limits = m_request.limits;
  if (limits.cost_usd && !m_record.usage.cost_usd) {
    char limit[32];
    std::snprintf(limit, sizeof limit, "%.2f", *limits.cost_usd);
    m_record.warnings.push_back(std::string("limits.cost_usd ($") + limit + ") was not enforced: the cost of " +
                                m_parts.model.model_name() + " is unknown (no price for it in the price table)");
  }
  m_record.context.window = m_context.window();
  notify([&](AgentObserver& o) { o.stop(*m_record.stop_reason, m_run.message); });
}

}  // namespace agent_run
