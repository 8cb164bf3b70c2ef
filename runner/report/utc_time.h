#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace agent_run {

/// Milliseconds since the Unix epoch of an ISO 8601 time `YYYY-MM-DDTHH:MM:SS[.fff][Z|±HH:MM]`
/// (no zone means UTC); nullopt when `text` is not one.
std::optional<long long> parse_utc_ms(std::string_view text);

/// `YYYY-MM-DDTHH:MM:SS` in UTC without fraction or zone: the JUnit `timestamp` form.
std::string format_utc_seconds(long long epoch_ms);

}  // namespace agent_run
