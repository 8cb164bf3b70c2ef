#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace agent_run {

/// What a run may set about how one model is asked (agent-run.yaml's top-level keys and its
/// `models:` entries, and the flags): each unset field leaves the provider's or the price table's.
struct ModelOptions {
  std::optional<int> max_output_tokens;
  std::optional<double> temperature;
  std::optional<int> thinking_budget;           // Anthropic: extended thinking's budget_tokens
  std::optional<std::string> reasoning_effort;  // OpenAI: minimal | low | medium | high
  std::optional<std::int64_t> context_window;   // tokens; overrides the price table's

  /// `over` where it sets a field, this where it does not.
  ModelOptions overlaid_by(const ModelOptions& over) const {
    ModelOptions merged = *this;
    if (over.max_output_tokens) merged.max_output_tokens = over.max_output_tokens;
    if (over.temperature) merged.temperature = over.temperature;
    if (over.thinking_budget) merged.thinking_budget = over.thinking_budget;
    if (over.reasoning_effort) merged.reasoning_effort = over.reasoning_effort;
    if (over.context_window) merged.context_window = over.context_window;
    return merged;
  }
};

}  // namespace agent_run
