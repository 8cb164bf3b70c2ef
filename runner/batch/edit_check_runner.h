#pragma once

#include "batch/run_attempt.h"
#include "exec/attempt_sandbox.h"
#include "exec/process_table.h"
#include "task/task.h"
#include "tools/edit_checks.h"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace agent_run {

/// The task's `during: edit` checks, run after each edit_file/write_file through the attempt's
/// table for checks, in the agent's sandbox (as check-feedback rounds are), with the checks' env:
/// and secrets (their output redacted); it remembers which failed last, to say when one passes again.
class EditCheckRunner final : public EditChecks {
 public:
  EditCheckRunner(const Task& task, const std::filesystem::path& root, const AttemptSettings& settings,
                  ProcessTable& commands, const AttemptSandbox* sandbox)
      : m_task(task), m_root(root), m_settings(settings), m_commands(commands), m_sandbox(sandbox) {}

  std::vector<CheckRecord> after_edit() override;
  std::string note(const std::vector<CheckRecord>& checks) override;

 private:
  const Task& m_task;
  std::filesystem::path m_root;
  const AttemptSettings& m_settings;
  ProcessTable& m_commands;
  const AttemptSandbox* m_sandbox;
  std::map<std::string, bool> m_failed;  // command -> whether its last run after an edit failed
};

/// Whether the task has checks marked `during: edit`.
bool has_edit_checks(const Task& task);

}  // namespace agent_run
