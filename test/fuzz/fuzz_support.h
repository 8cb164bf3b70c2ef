#pragma once

// What the libFuzzer targets share: the input as text, and the way a target reports an invariant
// that does not hold (a trap, so libFuzzer saves the input as a crash); the UTF-8 and entity checks of
// the escapers' targets.

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

/// Decodes one UTF-8 code point at `at` (advancing it); -1 for an invalid sequence.
inline long next_code_point(std::string_view text, std::size_t& at) {
  auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  unsigned char lead = byte(at);
  int length = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3 : (lead >> 3) == 0x1E ? 4 : 0;
  if (length == 0 || at + length > text.size()) return -1;
  long code = length == 1 ? lead : lead & (0x7F >> length);
  for (int i = 1; i < length; ++i) {
    if ((byte(at + i) >> 6) != 0x2) return -1;
    code = (code << 6) | (byte(at + i) & 0x3F);
  }
  const long smallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < smallest[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return -1;
  at += length;
  return code;
}

/// Whether `c` is an XML 1.0 `Char`.
inline bool is_xml_char(long c) {
  return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) ||
         (c >= 0x10000 && c <= 0x10FFFF);
}

/// Every `&` starts one of the entities or character references the escapers write.
inline bool ampersands_are_entities(std::string_view text) {
  for (std::size_t at = text.find('&'); at != std::string_view::npos; at = text.find('&', at + 1)) {
    std::string_view rest = text.substr(at);
    std::size_t end = rest.find(';');
    if (end == std::string_view::npos || end < 3) return false;
    std::string_view name = rest.substr(1, end - 1);
    bool named = name == "amp" || name == "lt" || name == "gt" || name == "quot" || name == "apos";
    bool numeric = name.size() >= 2 && name[0] == '#' && name.find_first_not_of("0123456789xXabcdefABCDEF", 1) ==
                                                              std::string_view::npos;
    if (!named && !numeric) return false;
  }
  return true;
}

/// Whether `text` is valid UTF-8 (no overlong forms, surrogates or code points past U+10FFFF).
inline bool is_valid_utf8(std::string_view text) {
  for (std::size_t at = 0; at < text.size();) {
    if (next_code_point(text, at) < 0) return false;
  }
  return true;
}

}  // namespace agent_run::fuzz
