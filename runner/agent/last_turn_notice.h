#pragma once

#include "agent/agent_settings.h"
#include "agent/limits.h"
#include "report/run_report.h"

#include <chrono>
#include <optional>
#include <string>

namespace agent_run {

/// Tells the agent once, before its last turn or when a share of its token, cost or time budget is
/// spent, to give its best answer now rather than be cut mid-work.
class LastTurnNotice {
 public:
  explicit LastTurnNotice(LastTurnNoticeSettings settings) : m_settings(settings) {}

  /// The notice due before turn `next_turn` (1-based), or nothing; each is given once.
  std::optional<std::string> due(int next_turn, const Limits& limits, const AgentRecord& record,
                                 std::chrono::milliseconds elapsed);

 private:
  LastTurnNoticeSettings m_settings;
  bool m_sent = false;
};

}  // namespace agent_run
