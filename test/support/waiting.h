#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <string>

namespace agent_run::test {

/// How long a test waits for an event before it gives up: far beyond what a loaded two-core
/// machine needs, so that a test fails only when the event never comes, never because it is late.
inline constexpr std::chrono::milliseconds k_patience{std::chrono::seconds(60)};

/// Polls `condition` every few milliseconds until it holds or `patience` has passed; whether it holds.
bool wait_until(const std::function<bool()>& condition, std::chrono::milliseconds patience = k_patience);

/// Waits until `file` holds a whole line (its content ends with a newline, as `echo ... > file`
/// leaves it); the content, or "" when it never did.
std::string wait_for_line_in(const std::filesystem::path& file, std::chrono::milliseconds patience = k_patience);

}  // namespace agent_run::test
