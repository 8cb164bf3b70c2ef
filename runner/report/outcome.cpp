#include "report/outcome.h"

#include <algorithm>
#include <array>

namespace agent_run {

namespace {

using enum OutcomeType;
constexpr Outcome k_passed = Outcome::passed;
constexpr Outcome k_failed = Outcome::failed;
constexpr Outcome k_error = Outcome::error;

constexpr std::array k_outcome_types = {
    OutcomeTypeRow{passed, "passed", k_passed},
    OutcomeTypeRow{check_failed, "check.failed", k_failed},
    OutcomeTypeRow{check_not_judged, "check.not_judged", k_error},
    OutcomeTypeRow{setup_failed, "setup.failed", k_error},
    OutcomeTypeRow{sandbox_unavailable, "sandbox.unavailable", k_error},
    OutcomeTypeRow{model_unavailable, "model.unavailable", k_error},
    OutcomeTypeRow{mcp_unavailable, "mcp.unavailable", k_error},
    OutcomeTypeRow{model_max_tokens, "model.max_tokens", k_failed},
    OutcomeTypeRow{model_refusal, "model.refusal", k_failed},
    OutcomeTypeRow{model_context_window, "model.context_window", k_failed},
    OutcomeTypeRow{limit_turns, "limit.turns", k_failed},
    OutcomeTypeRow{limit_time, "limit.time", k_failed},
    OutcomeTypeRow{limit_tokens, "limit.tokens", k_failed},
    OutcomeTypeRow{limit_cost, "limit.cost", k_failed},
    OutcomeTypeRow{ask_user_unanswered, "ask_user.unanswered", k_failed},
    OutcomeTypeRow{output_invalid, "output.invalid", k_failed},
    OutcomeTypeRow{interrupted, "interrupted", k_error},
    OutcomeTypeRow{commit_failed, "commit.failed", k_error},
    OutcomeTypeRow{workspace_failed, "workspace.failed", k_error},
    OutcomeTypeRow{workspace_cleanup_failed, "workspace.cleanup_failed", k_error},
    OutcomeTypeRow{run_budget, "run.budget", Outcome::skipped},
    OutcomeTypeRow{runner_crashed, "runner.crashed", k_error},
};

constexpr std::array k_agent_stops = {
    AgentStopRow{AgentStop::end_turn, "end_turn", std::nullopt},
    AgentStopRow{AgentStop::limit_turns, "limit.turns", limit_turns},
    AgentStopRow{AgentStop::limit_time, "limit.time", limit_time},
    AgentStopRow{AgentStop::limit_tokens, "limit.tokens", limit_tokens},
    AgentStopRow{AgentStop::limit_cost, "limit.cost", limit_cost},
    AgentStopRow{AgentStop::model_error, "model.error", model_unavailable},
    AgentStopRow{AgentStop::model_max_tokens, "model.max_tokens", model_max_tokens},
    AgentStopRow{AgentStop::model_refusal, "model.refusal", model_refusal},
    AgentStopRow{AgentStop::model_context_window, "model.context_window", model_context_window},
    AgentStopRow{AgentStop::ask_user_unanswered, "ask_user.unanswered", ask_user_unanswered},
    AgentStopRow{AgentStop::output_invalid, "output.invalid", output_invalid},
    AgentStopRow{AgentStop::interrupted, "interrupted", interrupted},
};

// Row i of each table is its enum's value i (so row_of can index them), and every value has a row.
static_assert([] {
  for (std::size_t i = 0; i < k_outcome_types.size(); ++i) {
    if (static_cast<std::size_t>(k_outcome_types[i].type) != i) return false;
  }
  return k_outcome_types.size() == static_cast<std::size_t>(runner_crashed) + 1;
}());
static_assert([] {
  for (std::size_t i = 0; i < k_agent_stops.size(); ++i) {
    if (static_cast<std::size_t>(k_agent_stops[i].stop) != i) return false;
  }
  return k_agent_stops.size() == static_cast<std::size_t>(AgentStop::interrupted) + 1;
}());

/// The row of `value` in `table`, whose rows are in the enum's order.
template <typename Table, typename Enum>
const auto& row_of(const Table& table, Enum value) {
  return table[static_cast<std::size_t>(value)];
}

}  // namespace

std::span<const OutcomeTypeRow> outcome_types() { return k_outcome_types; }
std::span<const AgentStopRow> agent_stops() { return k_agent_stops; }

const char* to_string(Outcome outcome) {
  switch (outcome) {
    case Outcome::passed: return "passed";
    case Outcome::failed: return "failed";
    case Outcome::error: return "error";
    case Outcome::skipped: return "skipped";
  }
  return "unknown";
}

const char* to_string(OutcomeType type) { return row_of(k_outcome_types, type).name.data(); }
Outcome outcome_of(OutcomeType type) { return row_of(k_outcome_types, type).outcome; }

std::optional<Outcome> outcome_named(std::string_view name) {
  for (Outcome outcome : {Outcome::passed, Outcome::failed, Outcome::error, Outcome::skipped}) {
    if (name == to_string(outcome)) return outcome;
  }
  return std::nullopt;
}

std::optional<OutcomeType> outcome_type_named(std::string_view name) {
  auto row =
      std::find_if(k_outcome_types.begin(), k_outcome_types.end(), [&](const auto& r) { return r.name == name; });
  return row == k_outcome_types.end() ? std::nullopt : std::optional(row->type);
}

const char* to_string(AgentStop stop) { return row_of(k_agent_stops, stop).name.data(); }
std::optional<OutcomeType> outcome_type_of(AgentStop stop) { return row_of(k_agent_stops, stop).outcome; }

std::optional<AgentStop> agent_stop_named(std::string_view name) {
  auto row = std::find_if(k_agent_stops.begin(), k_agent_stops.end(), [&](const auto& r) { return r.name == name; });
  return row == k_agent_stops.end() ? std::nullopt : std::optional(row->stop);
}

}  // namespace agent_run
