#pragma once

#include "report/run_totals.h"

#include <cstdint>
#include <optional>
#include <string>

namespace agent_run {

// Figures as a person reads them, the same in the console, summary.md and report.html.

/// `0.4s` under a minute, `2m05s` under an hour, `1h02m` beyond.
std::string short_duration(long long ms);

/// `$0.4123`: four decimals, C locale (the console, the context_status tool, the run's budget).
std::string dollars(double usd);

/// dollars(cost_usd), or `unknown` when a price was missing.
std::string dollars(const std::optional<double>& cost_usd);

/// `812`, `24.4k`, `1.25M`: a token count in three significant figures.
std::string token_count(std::int64_t tokens);

/// A usage's tokens in all as token_count, with `~` before when they were estimated.
std::string tokens_text(const Usage& usage);

/// Passed attempts over judged ones (passed + failed); nullopt when none was judged.
std::optional<double> pass_rate(const RunTotals& totals);

/// `67%` (rounded), or `-` when there is no rate.
std::string percent(const std::optional<double>& fraction);

/// The fraction as a GitHub output or JSON-like number: `0.6667` (four decimals, C locale), or
/// empty when there is none.
std::string decimal_fraction(const std::optional<double>& fraction);

}  // namespace agent_run
