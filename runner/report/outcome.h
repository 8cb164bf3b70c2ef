#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace agent_run {

/// The outcome of one attempt; maps one to one onto JUnit (none, <failure>, <error>, <skipped>).
enum class Outcome { passed, failed, error, skipped };

/// Why an attempt ended as it did: the report's machine-readable `outcome_type`. Each has one name
/// and one outcome in outcome_types(); reports/report.schema.json enumerates the same names.
enum class OutcomeType {
  passed,
  check_failed,      // a check command failed
  check_not_judged,  // a no_new_diagnostics check had nothing it could judge
  setup_failed,
  sandbox_unavailable,  // the task or policy asks for a sandbox bubblewrap cannot give
  model_unavailable,    // the model client could not be made, or its API gave up
  mcp_unavailable,      // an MCP server the task marks required: true could not be started
  model_max_tokens,
  model_refusal,
  model_context_window,
  limit_turns,
  limit_time,
  limit_tokens,
  limit_cost,
  ask_user_unanswered,  // ask_user with `otherwise: fail` and no matching answer
  output_invalid,       // the final answer did not match the task's output_schema, even after a correction
  interrupted,          // SIGINT or SIGTERM; --resume runs it again
  commit_failed,
  workspace_failed,
  workspace_cleanup_failed,
  run_budget,      // not started: the run's --max-cost or --max-time was reached
  runner_crashed,  // agent-run itself failed while running the attempt
};

/// One row of the outcome types' table.
struct OutcomeTypeRow {
  OutcomeType type;
  std::string_view name;  // as the report writes it, e.g. check.failed
  Outcome outcome;
};

/// Every outcome type, in the enum's order.
std::span<const OutcomeTypeRow> outcome_types();

const char* to_string(Outcome outcome);
const char* to_string(OutcomeType type);
/// The outcome an attempt of this type has.
Outcome outcome_of(OutcomeType type);
std::optional<Outcome> outcome_named(std::string_view name);
std::optional<OutcomeType> outcome_type_named(std::string_view name);

/// How the agent loop ended: the report's `stop_reason`.
enum class AgentStop {
  end_turn,  // the model finished: the checks judge the attempt
  limit_turns,
  limit_time,
  limit_tokens,
  limit_cost,
  model_error,  // the model API gave up
  model_max_tokens,
  model_refusal,
  model_context_window,
  ask_user_unanswered,  // a tool ended the attempt
  output_invalid,       // the final answer did not match output_schema after its one correction
  interrupted,          // the run's cancellation fired
};

/// One row of the agent stops' table.
struct AgentStopRow {
  AgentStop stop;
  std::string_view name;               // as the report writes it, e.g. limit.turns
  std::optional<OutcomeType> outcome;  // the attempt's outcome type; nullopt: its checks decide
};

/// Every agent stop, in the enum's order.
std::span<const AgentStopRow> agent_stops();

const char* to_string(AgentStop stop);
std::optional<AgentStop> agent_stop_named(std::string_view name);
/// The outcome type an attempt gets when its agent stopped this way; nullopt for end_turn.
std::optional<OutcomeType> outcome_type_of(AgentStop stop);

}  // namespace agent_run
