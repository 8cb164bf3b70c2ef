#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace agent_run {

/// Keeps the first and last bytes of a stream of unknown length, counting everything, so a flood
/// of output costs bounded memory. Its text matches cap_head_tail (base/text.h) on the whole stream.
class OutputCapture {
 public:
  OutputCapture(std::size_t head_bytes, std::size_t tail_bytes);

  /// Adds the next bytes of the stream.
  void append(std::string_view bytes);
  /// Every byte appended so far, kept or not.
  std::size_t total() const { return m_total; }
  /// Everything, or the head and tail with a `[... N bytes omitted ...]` line between them, cut on
  /// UTF-8 boundaries.
  std::string text() const;

 private:
  std::size_t m_head_capacity;
  std::size_t m_tail_capacity;
  std::string m_head;
  std::optional<char> m_byte_after_head;  // decides where the head is cut (UTF-8)
  std::string m_tail;                     // the bytes after the head; trimmed to the last ones
  std::size_t m_total = 0;
};

}  // namespace agent_run
