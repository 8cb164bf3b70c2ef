#include "batch/attempt_progress.h"

namespace agent_run {

void ProgressReporter::phase(std::string name) {
  m_progress.phase = std::move(name);
  m_progress.activity.clear();
  send();
}

void ProgressReporter::turn(int turn, const ModelTurn& response, const ModelCallRecord&) {
  m_progress.turn = turn;
  m_progress.usage += response.usage;
  m_progress.activity.clear();
  for (const ToolCall& call : response.message.tool_calls) {
    m_progress.activity += (m_progress.activity.empty() ? "" : ", ") + call.name;
  }
  send();
}

void ProgressReporter::send() {
  if (m_sink) m_sink(m_progress);
}

}  // namespace agent_run
