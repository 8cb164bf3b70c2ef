#include "batch/check_feedback.h"

#include "base/cancellation.h"
#include "base/text.h"
#include "batch/attempt_steps.h"

#include <algorithm>

namespace agent_run {

std::string how_it_ended(const CheckRecord& check) {
  if (check.timed_out) return "it timed out";
  if (check.exit_code < 0) return "it could not run";
  return "exit code " + std::to_string(check.exit_code);
}

std::string check_feedback_message(const CheckRound& round, int rounds_in_all, std::size_t output_bytes) {
  std::string text = "agent-run: the task's checks failed (round " + std::to_string(round.round) + " of " +
                     std::to_string(rounds_in_all) +
                     "). Fix what they report, then finish again; the checks run "
                     "again when you stop.\n";
  for (const CheckRecord& check : round.checks) {
    if (check.passed) continue;
    const std::string tail = tail_of(check.output_tail, output_bytes);
    text += "\n$ " + check.run + "\n" + how_it_ended(check) +
            (tail.empty() ? "; it printed nothing\n" : "; the end of its output:\n" + tail);
    if (!text.ends_with("\n")) text += "\n";
  }
  return text;
}

ReviewVerdict CheckFeedbackReview::review(const std::string& /*final_text*/, const ReviewContext& context,
                                          AgentRecord& record) {
  const Clock::SteadyTime started = m_settings.clock->now();
  CheckRound round;
  round.round = static_cast<int>(record.check_rounds.size()) + 1;
  round.turn = context.turn;
  round.checks = run_checks(m_task, record.edits, m_workspace, m_settings, m_commands, m_sandbox, m_gates);
  m_durations.checks_ms += elapsed_ms(started, m_settings.clock->now());
  round.passed = std::all_of(round.checks.begin(), round.checks.end(), [](const CheckRecord& c) { return c.passed; });
  const int rounds_in_all = m_task.check_feedback.rounds + 1;
  const bool cancelled = m_settings.cancellation && m_settings.cancellation->cancelled();
  round.fed_back = !round.passed && round.round < rounds_in_all && context.can_go_on && !cancelled;
  record.check_rounds.push_back(round);
  if (m_observer) m_observer->checks_ran(round.round, round.checks);
  if (!round.fed_back) return ReviewVerdict::accept();  // passed, or the last round: the outcome is its
  return ReviewVerdict::send_back(check_feedback_message(round, rounds_in_all, m_task.check_feedback.output_bytes));
}

}  // namespace agent_run
