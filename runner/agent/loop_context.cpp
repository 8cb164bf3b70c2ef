#include "agent/compaction.h"
#include "agent/loop_run.h"
#include "base/redaction.h"
#include "base/text.h"

namespace agent_run {

namespace {

constexpr int k_most_refusals_in_a_row = 3;

}  // namespace

/// Before a request: when it would fill the window past the threshold, prune; when that is not
/// enough, compact; when that fails, prune harder. False (the attempt stopped, everything recorded)
/// only when even then the request cannot fit.
bool LoopRun::make_room() {
  m_context.count_new(m_conversation);
  if (!m_context.needs_room()) return true;
  prune(PruneDepth::normal);
  if (!m_context.needs_room()) return true;
  const bool may_compact =
      m_request.context.compaction && m_record.turns > 0 && m_record.turns >= m_no_compaction_before_turn;
  if (may_compact && compact()) return true;
  if (cancelled()) {
    stop(AgentStop::interrupted, "the run was interrupted while the conversation was compacted");
    return false;
  }
  prune(PruneDepth::hard);
  if (!m_context.over_window()) {
    m_no_compaction_before_turn = m_record.turns + m_request.context.keep_turns + 1;
    return true;
  }
  ContextEvent gave_up{m_record.turns + 1, "gave_up", m_context.size(), m_context.size()};
  gave_up.message = "the next request (about " + std::to_string(m_context.size()) + " tokens) does not fit the " +
                    std::to_string(*m_context.window()) + "-token window, even with every older tool result pruned" +
                    (may_compact ? " and after a compaction that failed" : "");
  record_context(gave_up);
  stop(AgentStop::model_context_window, gave_up.message);
  return false;
}

void LoopRun::prune(PruneDepth depth) {
  PruneResult pruned = m_context.prune(m_conversation, depth);
  if (pruned.results_pruned == 0) return;
  ContextEvent event{m_record.turns + 1, depth == PruneDepth::hard ? "pruned_hard" : "pruned", pruned.tokens_before,
                     pruned.tokens_after, pruned.results_pruned};
  ++m_record.context.prunings;
  record_context(event);
}

/// Asks the model to summarise the work, then restarts the conversation from the summary with the
/// task, the plan, the files changed and the latest check feedback kept verbatim. False, recorded,
/// when the model gave no usable summary or the new conversation would still be too big.
bool LoopRun::compact() {
  ContextEvent event{m_record.turns + 1, "compaction_failed", m_context.size(), m_context.size()};
  auto summary = ask_model(compaction_request(m_conversation), true);
  if (summary) event.cost_usd = summary->usage.cost_usd;
  std::string text = summary ? std::string(trim(summary->message.text)) : std::string();
  if (!summary) event.message = "the summary's model call failed: " + summary.error().message;
  else if (summary->stop_reason == StopReason::context_window)
    event.message = "the summary's request did not fit the window";
  else if (text.empty()) event.message = "the model answered with no summary";
  ContextWindow trial = m_context;
  Conversation next;
  if (event.message.empty()) {
    CompactionKeep keep{
        m_request.prompt,  m_session.todos, m_record.edits, m_last_feedback, m_record.context.compactions + 1,
        m_record.turns + 1};
    next = compacted_conversation(m_conversation.system, redact_values(text, m_request.secret_values), keep);
    trial.restart(next);
    if (trial.needs_room())
      event.message = "the summary left the conversation too big (" + std::to_string(trial.size()) + " tokens)";
  }
  if (!event.message.empty()) {
    ++m_record.context.failed_compactions;
    m_no_compaction_before_turn = m_record.turns + m_request.context.keep_turns + 1;
    record_context(event);
    return false;
  }
  m_conversation = std::move(next);
  m_context = std::move(trial);
  event.kind = "compacted";
  event.tokens_after = m_context.size();
  ++m_record.context.compactions;
  record_context(event);
  return true;
}

/// The API refused the request as too long (or the model ran into the window): the window is at
/// most that big. False, with the attempt stopped, after a few refusals in a row.
bool LoopRun::learn_refusal(const ModelTurn& turn) {
  (void)turn;
  if (++m_refusals_in_a_row > k_most_refusals_in_a_row) {
    stop(AgentStop::model_context_window, "the model's API refused the request as too long " +
                                              std::to_string(k_most_refusals_in_a_row) +
                                              " times in a row, even after the conversation was made smaller");
    return false;
  }
  const std::int64_t before = m_context.size();
  m_context.learn_refusal();
  ContextEvent event{m_record.turns + 1, "learnt_window", before, m_context.size()};
  event.message = "the API refused a request of about " + std::to_string(before) +
                  " tokens as too long: the window is taken as " + std::to_string(*m_context.window()) + " tokens";
  record_context(event);
  return true;
}

void LoopRun::record_context(ContextEvent event) {
  m_record.context.window = m_context.window();
  m_record.context.events.push_back(event);
  notify([&](AgentObserver& o) { o.context_changed(event, m_conversation); });
}

}  // namespace agent_run
