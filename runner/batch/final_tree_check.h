#pragma once

#include "batch/no_new_diagnostics.h"
#include "batch/run_attempt.h"
#include "exec/attempt_sandbox.h"
#include "task/task.h"
#include "workspace/workspace.h"

namespace agent_run {

/// The per-edit gate's re-check of one file on the final tree (`no_new_diagnostics: true`): the
/// run's per-edit checker (settings.diagnostics) given the file as it is now and as the baseline
/// after setup held it (the baseline tree written once to the scratch area, when first needed), with the agent's tool environment, inside `sandbox` unless it is nullptr, and
/// the task's tool_timeout as its budget instead of the per-edit one. A file no longer there has no
/// problems. Empty when diagnostics are off for the run or the task.
RecheckFile final_tree_recheck(const Task& task, const Workspace& workspace, const AttemptSettings& settings,
                               const AttemptSandbox* sandbox);

}  // namespace agent_run
