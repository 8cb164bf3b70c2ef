#pragma once

#include <cstdint>
#include <optional>

namespace agent_run {

/// Token usage, normalised to the Anthropic meaning: input_tokens excludes cached input.
struct Usage {
  std::int64_t input_tokens = 0;
  std::int64_t output_tokens = 0;
  std::int64_t cache_read_input_tokens = 0;
  std::int64_t cache_creation_input_tokens = 0;
  std::int64_t reasoning_tokens = 0;  // informational subset of output_tokens
  bool estimated = false;             // counted by the runner, not reported by a provider
  std::optional<double> cost_usd;     // nullopt: the price is unknown (never reported as zero)

  /// An empty sum whose cost is known (zero): start totals from this.
  static Usage zero() {
    Usage usage;
    usage.cost_usd = 0.0;
    return usage;
  }
  std::int64_t total_tokens() const {
    return input_tokens + output_tokens + cache_read_input_tokens + cache_creation_input_tokens;
  }
  /// Adds `other`; the cost stays known only while both are known.
  Usage& operator+=(const Usage& other);
};

}  // namespace agent_run
