#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace agent_run {

/// Parses a duration such as `90s`, `15m`, `1h`, `500ms` or `1h30m`; nullopt when it is not one.
std::optional<std::chrono::milliseconds> parse_duration(std::string_view text);

/// Formats a duration the way parse_duration reads it back (`15m`, `1h30m`, `250ms`).
std::string format_duration(std::chrono::milliseconds duration);

}  // namespace agent_run
