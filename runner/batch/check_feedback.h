#pragma once

#include "agent/finish_review.h"
#include "batch/project_gate.h"
#include "batch/run_attempt.h"
#include "exec/process_table.h"
#include "task/task.h"
#include "workspace/workspace.h"

#include <filesystem>
#include <string>

namespace agent_run {

/// The task's checks as a review of the agent's finished work (`check_feedback:`): each time the
/// model ends its turn the checks run (while the agent's session still lives) and the round is
/// recorded; failed ones go back to the agent, their commands and output tails, up to the task's
/// number of further rounds and while the limits leave a turn. The outcome is then the last round's
/// (judge in attempt_steps.h).
class CheckFeedbackReview final : public FinishReview {
 public:
  /// The checks run inside `sandbox` unless it is nullptr, the project gates against `gates`;
  /// `observer` (may be null) hears each round.
  CheckFeedbackReview(const Task& task, const Workspace& workspace, const AttemptSettings& settings,
                      ProcessTable& commands, const AttemptSandbox* sandbox, const GateBaselines& gates,
                      Durations& durations, AttemptObserver* observer)
      : m_task(task), m_workspace(workspace), m_settings(settings), m_commands(commands), m_sandbox(sandbox), m_gates(gates),
        m_durations(durations), m_observer(observer) {}

  std::string name() const override { return "checks"; }
  bool may_change_files() const override { return true; }
  ReviewVerdict review(const std::string& final_text, const ReviewContext& context, AgentRecord& record) override;

 private:
  const Task& m_task;
  const Workspace& m_workspace;
  const AttemptSettings& m_settings;
  ProcessTable& m_commands;
  const AttemptSandbox* m_sandbox;
  const GateBaselines& m_gates;
  Durations& m_durations;
  AttemptObserver* m_observer;
};

/// How a failed check ended, for the model: "exit code N", "it timed out" or "it could not run".
std::string how_it_ended(const CheckRecord& check);

/// The message that sends failed checks back: what failed and the tail of each one's output.
std::string check_feedback_message(const CheckRound& round, int rounds_in_all, std::size_t output_bytes);

}  // namespace agent_run
