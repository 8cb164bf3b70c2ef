#pragma once

// What the libFuzzer targets share: the input as text, and the way a target reports an invariant
// that does not hold (a trap, so libFuzzer saves the input as a crash).

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace agent_run::fuzz {

/// Stops the run so libFuzzer saves the input: an invariant does not hold.
[[noreturn]] inline void invariant_broken() { __builtin_trap(); }

/// Traps unless `condition` holds.
inline void require(bool condition) {
  if (!condition) invariant_broken();
}

/// The fuzzer's bytes as text.
inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

/// The lines of `text` without their '\n' (a last line without one included), as a reader of a
/// socket hands them out.
inline std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    std::size_t end = text.find('\n');
    lines.push_back(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

/// Whether every line of `message` starts with `prefix` (each problem of a file names the file).
inline bool every_line_starts_with(std::string_view message, std::string_view prefix) {
  for (std::string_view line : lines_of(message)) {
    if (!line.starts_with(prefix)) return false;
  }
  return true;
}

}  // namespace agent_run::fuzz
