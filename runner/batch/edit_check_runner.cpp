#include "batch/edit_check_runner.h"

#include "base/cancellation.h"
#include "base/text.h"
#include "batch/attempt_steps.h"
#include "batch/check_feedback.h"

#include <algorithm>

namespace agent_run {

bool has_edit_checks(const Task& task) {
  return std::any_of(task.checks.begin(), task.checks.end(), [](const Check& check) { return check.after_edits; });
}

std::vector<CheckRecord> EditCheckRunner::after_edit() {
  std::vector<CheckRecord> records;
  for (const Check& check : m_task.checks) {
    if (!check.after_edits) continue;
    if (m_settings.cancellation && m_settings.cancellation->cancelled()) break;
    CheckRecord record = run_command(check.run, m_root, m_task, m_settings, m_commands, m_sandbox);
    if (record.passed) record.output_tail.clear();  // the report keeps why a check failed, not every pass
    records.push_back(std::move(record));
  }
  return records;
}

std::string EditCheckRunner::note(const std::vector<CheckRecord>& checks) {
  std::string failed;
  std::string passes_again;
  for (const CheckRecord& check : checks) {
    const bool failed_before = m_failed[check.run];
    m_failed[check.run] = !check.passed;
    if (check.passed) {
      if (failed_before) passes_again += "\n$ " + check.run + "\npasses now\n";
      continue;
    }
    const std::string tail = tail_of(check.output_tail, m_task.check_feedback.output_bytes);
    failed += "\n$ " + check.run + "\n" + how_it_ended(check) +
              (tail.empty() ? "; it printed nothing\n" : "; the end of its output:\n" + tail);
    if (!failed.ends_with("\n")) failed += "\n";
  }
  if (failed.empty() && passes_again.empty()) return "";
  std::string text = "agent-run: the task's checks that run after each edit";
  text += failed.empty() ? " pass again:\n" : " found a problem; fix it before you finish (the checks decide then):\n";
  return text + failed + passes_again;
}

}  // namespace agent_run
