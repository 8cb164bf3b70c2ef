#include "agent/last_turn_notice.h"

#include <cstdio>

namespace agent_run {

namespace {

std::string percent(double share) {
  char text[16];
  std::snprintf(text, sizeof text, "%.0f%%", share * 100);
  return text;
}

/// The most spent share of the token, cost and time limits, and which it is.
std::pair<double, std::string> most_spent(const Limits& limits, const AgentRecord& record,
                                          std::chrono::milliseconds elapsed) {
  std::pair<double, std::string> most{0.0, ""};
  auto consider = [&](double share, const char* what) {
    if (share > most.first) most = {share, what};
  };
  if (limits.tokens) consider(static_cast<double>(record.usage.total_tokens()) / *limits.tokens, "token");
  if (limits.cost_usd && record.usage.cost_usd) consider(*record.usage.cost_usd / *limits.cost_usd, "cost");
  if (limits.time.count() > 0) consider(static_cast<double>(elapsed.count()) / limits.time.count(), "time");
  return most;
}

}  // namespace

std::optional<std::string> LastTurnNotice::due(int next_turn, const Limits& limits, const AgentRecord& record,
                                               std::chrono::milliseconds elapsed) {
  if (!m_settings.enabled || m_sent) return std::nullopt;
  if (next_turn >= limits.turns && limits.turns > 1) {
    m_sent = true;
    return "agent-run: this is your last turn (" + std::to_string(next_turn) + " of " + std::to_string(limits.turns) +
           "); the attempt ends after it. Give your final answer now: what you did, what is left, and what the "
           "person reading the report should know. Tool calls you make now are the last that run.";
  }
  auto [share, what] = most_spent(limits, record, elapsed);
  if (share < m_settings.budget_share) return std::nullopt;
  m_sent = true;
  return "agent-run: " + percent(share) + " of this attempt's " + what +
         " budget is spent; the attempt ends when it runs out. Finish now with as few tool calls as possible, and "
         "give your final answer: what you did, what is left, and what the person reading the report should know.";
}

}  // namespace agent_run
