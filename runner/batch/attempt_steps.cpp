#include "batch/attempt_steps.h"

#include "base/redaction.h"
#include "base/text.h"
#include "batch/attempt_environment.h"
#include "batch/final_tree_check.h"
#include "batch/no_new_diagnostics.h"
#include "exec/attempt_sandbox.h"
#include "exec/child_environment.h"
#include "exec/process.h"
#include "exec/process_table.h"

namespace agent_run {

namespace {

constexpr std::size_t k_output_tail_bytes = 4096;

std::string why_failed(const CheckRecord& record) {
  if (record.timed_out) return "`" + record.run + "` timed out";
  if (record.exit_code < 0) return "`" + record.run + "` could not run: " + record.output_tail;
  return "`" + record.run + "` exited " + std::to_string(record.exit_code);
}

std::string describe_stop(const AttemptResult& result, const AgentRun& run, const Limits& limits) {
  switch (*result.stop_reason) {
    case AgentStop::limit_turns: return "the agent used all " + std::to_string(limits.turns) + " turns";
    case AgentStop::limit_time: return "the agent ran out of time";
    case AgentStop::limit_tokens: return "the agent used " + std::to_string(result.usage.total_tokens()) + " tokens";
    case AgentStop::limit_cost: return "the agent reached the cost limit";
    case AgentStop::model_max_tokens:
      return run.message.empty() ? "the model's answer was cut at its output token limit" : run.message;
    case AgentStop::model_refusal: return "the model refused";
    case AgentStop::model_context_window: return "the conversation outgrew the model's context window";
    default: return run.message;
  }
}

}  // namespace

CheckRecord run_command(const std::string& command, const std::filesystem::path& root, const Task& task,
                        const AttemptSettings& settings, ProcessTable& commands, const AttemptSandbox* sandbox) {
  CheckRecord record;
  record.run = command;
  ProcessSpec spec = shell_command(command, root, task.limits.tool_timeout);
  // The task author's own commands get the task's env: and secrets; their values never reach the report.
  // In the sandbox (the checks run code the agent wrote) only the allow list besides.
  spec.environment = child_environment({command_environment(task, settings), task.secrets, TaskSecrets::passed,
                                        sandbox ? ChildPlace::sandbox : ChildPlace::runner, env_names(task)});
  spec.cancellation = settings.cancellation;
  auto result = commands.run(in_attempt_sandbox(sandbox, std::move(spec)));
  const std::vector<std::string> secrets = secret_values_of(task, settings);  // a check may print one
  if (!result) {
    record.output_tail = redact_values(result.error().message, secrets);
    return record;
  }
  record.exit_code = result->exit_code;
  record.timed_out = result->timed_out;
  record.duration_ms = result->duration_ms;
  record.passed = !result->timed_out && result->signal == 0 && result->exit_code == 0;
  record.output_tail = tail_of(redact_values(result->output, secrets), k_output_tail_bytes);
  return record;
}

void set_outcome(AttemptResult& result, OutcomeType type, std::string message) {
  result.outcome = outcome_of(type);
  result.outcome_type = type;
  result.message = std::move(message);
}

bool run_setup(const Task& task, const std::filesystem::path& root, const AttemptSettings& settings,
               ProcessTable& commands, AttemptResult& result) {
  const Clock::SteadyTime started = settings.clock->now();
  bool ok = true;
  for (const std::string& command : task.setup) {
    result.setup.push_back(run_command(command, root, task, settings, commands, nullptr));  // the author's: outside
    if (!result.setup.back().passed) {
      set_outcome(result, OutcomeType::setup_failed, "setup " + why_failed(result.setup.back()));
      ok = false;
      break;
    }
  }
  result.durations.setup_ms = elapsed_ms(started, settings.clock->now());
  return ok;
}

bool agent_finished(const AttemptResult& result) { return result.stop_reason && !outcome_type_of(*result.stop_reason); }

std::vector<CheckRecord> run_checks(const Task& task, const std::vector<EditRecord>& edits, const Workspace& workspace,
                                    const AttemptSettings& settings, ProcessTable& commands,
                                    const AttemptSandbox* sandbox, const GateBaselines& gates) {
  const std::filesystem::path& root = workspace.root();
  std::vector<CheckRecord> checks(task.checks.size());
  std::vector<ProjectFindings> projects;  // the project gates', for the per-edit gate: the two never disagree
  for (std::size_t i = 0; i < task.checks.size(); ++i) {
    const Check& check = task.checks[i];
    if (check.project) {
      auto baseline = gates.find(i);
      GateBaseline missing;
      missing.failure = "its baseline was not checked before the agent started";
      std::optional<ProjectFindings> findings;
      checks[i] = judge_project_diagnostics(baseline != gates.end() ? baseline->second : missing, root, task, settings,
                                            commands, sandbox, &findings);
      if (findings) projects.push_back(std::move(*findings));
    } else if (!check.no_new_diagnostics) {
      checks[i] = run_command(check.run, root, task, settings, commands, sandbox);
    }
  }
  for (std::size_t i = 0; i < task.checks.size(); ++i) {
    if (task.checks[i].no_new_diagnostics && !task.checks[i].project) {
      checks[i] = judge_no_new_diagnostics(edits, settings.diagnostics != nullptr,
                                           final_tree_recheck(task, workspace, settings, sandbox), projects);
    }
  }
  return checks;
}

void judge(const Task& task, const AgentRun& run, const Workspace& workspace, const AttemptSettings& settings,
           ProcessTable& commands, const AttemptSandbox* sandbox, const GateBaselines& gates, AttemptResult& result) {
  if (std::optional<OutcomeType> stopped = outcome_type_of(*result.stop_reason)) {
    set_outcome(result, *stopped, describe_stop(result, run, task.limits));
    return;
  }
  if (!result.check_rounds.empty()) {
    result.checks = result.check_rounds.back().checks;  // the round the agent stopped on decides
  } else {
    const Clock::SteadyTime started = settings.clock->now();
    result.checks = run_checks(task, result.edits, workspace, settings, commands, sandbox, gates);
    result.durations.checks_ms = elapsed_ms(started, settings.clock->now());
  }
  for (const CheckRecord& check : result.checks) {
    if (!check.passed && check.run.starts_with("no_new_diagnostics") && check.exit_code < 0) {
      set_outcome(result, OutcomeType::check_not_judged, check.output_tail);
      return;
    }
    if (!check.passed) {
      set_outcome(result, OutcomeType::check_failed, "check " + why_failed(check));
      return;
    }
  }
  std::string passed = task.checks.empty() ? "the agent finished; the task has no checks"
                     : task.checks.size() == 1 ? std::string("the check passed")
                                               : "all " + std::to_string(task.checks.size()) + " checks passed";
  if (result.check_rounds.size() > 1) passed += " in round " + std::to_string(result.check_rounds.size());
  set_outcome(result, OutcomeType::passed, passed);
}

}  // namespace agent_run
