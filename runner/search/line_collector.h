#pragma once

#include "search/grep_search.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace agent_run {

/// Turns the matching lines of one file (given in order, by their byte range) into numbered match and
/// context lines as ripgrep prints them: `before` lines ahead of each match and `after` lines behind it,
/// never twice, with a context line that matches reported as a match. The file arrives a window at a
/// time (ChunkedSearch): offsets are of the whole file, and each window starts at a line start.
class LineCollector {
 public:
  LineCollector(int before, int after, std::vector<GrepLine>& out) : m_before(before), m_after(after), m_out(out) {}

  /// The bytes of the file now in memory: `window` starts at byte `base` of the file and ends at a
  /// line end (or the end of the file). Everything from keep_from() on must be in it.
  void see(std::string_view window, std::size_t base) {
    m_window = window;
    m_base = base;
  }

  /// The next matching line: [start, end) of the file, without its "\n".
  void add_match(std::size_t start, std::size_t end);

  /// Emits the context owed after the last match that the window holds.
  void end_window() { emit_after(INT64_MAX); }

  /// Where the bytes still needed begin, once the file has been searched up to `searched` (a line
  /// start): the `before` lines above it. Lines are counted up to there, so the window may move on.
  std::size_t keep_from(std::size_t searched);

 private:
  void count_lines_to(std::size_t offset);
  void emit_after(std::int64_t last_allowed);
  void emit(std::size_t start, std::size_t end, std::int64_t number, bool is_match);
  std::size_t line_end(std::size_t start) const;
  std::size_t line_start_above(std::size_t start) const;
  std::size_t window_end() const { return m_base + m_window.size(); }

  int m_before;
  int m_after;
  std::vector<GrepLine>& m_out;
  std::string_view m_window;
  std::size_t m_base = 0;           // the file offset of m_window's first byte
  std::size_t m_counted_to = 0;     // line numbers are counted up to this offset...
  std::int64_t m_counted_line = 1;  // ...which starts this line
  std::int64_t m_last_emitted = 0;  // the number of the last line emitted
  std::size_t m_last_end = 0;       // where that line ends (its "\n", or the end of the file)
  int m_after_left = 0;
};

}  // namespace agent_run
