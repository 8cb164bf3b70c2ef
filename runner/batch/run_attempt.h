#pragma once

#include "base/clock.h"
#include "batch/attempt_observer.h"
#include "batch/attempt_plan.h"
#include "batch/attempt_progress.h"
#include "diagnostics/diagnostics_checker.h"
#include "exec/sandbox_probe.h"
#include "model/model_client.h"
#include "model/replay_client.h"
#include "model/wire_transport.h"
#include "report/report_folder.h"
#include "report/run_report.h"
#include "tools/tool.h"
#include "workspace/workspace.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace agent_run {

class BaselineCache;
class Cancellation;

/// Makes the model client for attempt `n` of a task (`script`, `script/NAME`, or a provider/name);
/// a model behind an API sends its tries through `wire` (null: the network; a recorder or a
/// recording with --record and --replay). Fails when it cannot.
using ModelFactory = std::function<Expected<std::unique_ptr<ModelClient>>(
    const Task& task, const std::string& model, int n, std::shared_ptr<WireTransport> wire)>;

/// `--replay DIR`: the report folder whose recorded exchanges stand in for the model; and how a
/// request that differs is taken (`--replay-loose`), also by the tasks with `model: replay`.
struct ReplaySettings {
  std::filesystem::path folder;  // empty: only the tasks with `model: replay` replay, each from its `replay:`
  ReplayMode mode = ReplayMode::strict;
};

/// What every attempt of a run shares.
struct AttemptSettings {
  const Clock* clock = nullptr;
  const ReportFolder* reports = nullptr;
  std::filesystem::path scratch_folder;  // workspaces are made under it
  KeepWorkspace keep = KeepWorkspace::no;
  std::vector<std::string> environment;              // KEY=VALUE for setup, checks and bash; secrets removed
  std::map<std::string, std::string> secret_values;  // the tasks' secrets: from agent-run's environment
  std::vector<std::string> variables;  // agent-run's whole environment: ${VAR} in MCP server entries, and
                                       // what the agent's commands do not get (the report's names, the redacted values)
  ModelFactory make_model;
  const Cancellation* cancellation = nullptr;         // SIGINT/SIGTERM: stop, kill what runs, report interrupted
  GrepBackend grep_backend = GrepBackend::automatic;  // AGENT_RUN_GREP, read in app/
  DiagnosticsChecker* diagnostics = nullptr;  // per-edit diagnostics for every attempt; nullptr: off (--no-diagnostics)
  std::optional<SandboxSpec> sandbox_flag;    // --sandbox on|off: over every task's and policy's sandbox:
  SandboxProbe* sandbox_probe = nullptr;      // whether bubblewrap works here, asked once per network kind
  std::optional<std::filesystem::path> runner_home;  // agent-run's HOME: its credential folders are masked
  AttemptObserverFactory observe;             // another observer of each attempt (stream-json); unset: none
  bool record = false;                        // --record: keep each model exchange in the attempt's folder
  std::optional<ReplaySettings> replay;       // --replay DIR: play those exchanges back instead of a model
  BaselineCache* baseline_cache = nullptr;    // the project gate's baselines; nullptr: each attempt checks its own
};

/// Runs one attempt end to end: workspace, setup, agent loop, checks, patch, commit, clean-up.
/// Whatever happens becomes the result's outcome; nothing here throws or stops the run. When the
/// cancellation fires, running commands are killed and the attempt ends as an error of type
/// `interrupted` (its patch still saved, its workspace still removed). `progress` hears of each
/// phase and model turn.
AttemptResult run_attempt(const AttemptPlan& plan, const AttemptSettings& settings, const ProgressSink& progress = {});

}  // namespace agent_run
