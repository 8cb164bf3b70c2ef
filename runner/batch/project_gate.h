#pragma once

#include "batch/no_new_diagnostics.h"
#include "batch/run_attempt.h"
#include "diagnostics/project_checkers.h"
#include "exec/attempt_sandbox.h"
#include "exec/process_table.h"
#include "report/run_report.h"
#include "task/task.h"
#include "workspace/workspace.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// What the project gate found in the tree the agent started from, checked before the agent ran.
struct GateBaseline {
  std::vector<ProjectChecker> checkers;  // chosen after setup; the final tree is checked by the same
  std::vector<Problem> problems;
  std::optional<std::string> failure;  // why the gate cannot be judged (no checker, a crash, a timeout)
  int checker_runs = 0;                // how many checkers ran on it (0: everything came from the cache)
  std::vector<std::string> warnings;   // for the attempt's report: a baseline the cache could not store
};

/// The baselines of a task's `no_new_diagnostics: project` checks, by their index in `task.checks`.
using GateBaselines = std::map<std::size_t, GateBaseline>;

/// A project gate that cannot run: where the task's check names its checker (else where it says
/// `project`, else the task file), and why, naming the check and what to install.
struct UnrunnableGate {
  std::string where;  // FILE:LINE:COL
  std::string why;    // 'checks[N]' (no_new_diagnostics: project): the checker 'pyright' it names is not installed ...
};

/// The first of the task's project gates that cannot run in the project at `root` with the checks'
/// `environment` (the checker it names or would choose is not installed, or the project holds
/// nothing a checker reads); nullopt when each can. Asked after setup and before the agent's first
/// turn, so that no model call is spent on an attempt that cannot be judged; `agent-run validate`
/// asks it of the task's repository, as a warning.
std::optional<UnrunnableGate> unrunnable_gate(const Task& task, const std::filesystem::path& root,
                                              const std::vector<std::string>& environment);

/// The environment the project gate's checkers run with: the checks' without the task's secrets, LC_ALL=C.
std::vector<std::string> gate_environment(const Task& task, const AttemptSettings& settings);

/// Checks the baseline tree for each of the task's project gates: a scratch checkout of
/// Workspace::export_baseline (the workspace is left as it is) in `sandbox`'s private /tmp (or a
/// folder of the scratch area when it is nullptr), which is removed afterwards; what a checker found
/// there is read from `settings.baseline_cache` first and stored in it after. Called after setup and
/// before the agent's first turn, so that nothing the agent runs can touch the baseline.
GateBaselines check_gate_baselines(const Task& task, const Workspace& workspace, const AttemptSettings& settings,
                                   ProcessTable& commands, const AttemptSandbox* sandbox);

/// The `no_new_diagnostics: project` check: the baseline's checkers over the workspace at `root`
/// (inside `sandbox` unless it is nullptr); fails with the problems the final tree has and the
/// baseline has not, compared by file, severity, code and message (not position, which lines added
/// above an old problem move). A checker missing, crashed or timed out: not judged (exit_code -1).
/// When it was judged and `findings` is not null, the files its checkers read and the new problems
/// go there, for the per-edit gate of the same attempt.
CheckRecord judge_project_diagnostics(const GateBaseline& baseline, const std::filesystem::path& root,
                                      const Task& task, const AttemptSettings& settings, ProcessTable& commands,
                                      const AttemptSandbox* sandbox,
                                      std::optional<ProjectFindings>* findings = nullptr);

/// The key a baseline is cached under: SHA-256 of the format, the baseline tree's id (the commit's
/// files and what setup added that git would track), the checker's command line and the version it
/// prints, the task's `env:` and whether the sandbox is on.
std::string baseline_cache_key(const std::string& tree, const ProjectChecker& checker, const std::string& version,
                               const Task& task, bool sandboxed);

}  // namespace agent_run
