#pragma once

#include "search/grep_search.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace agent_run {

/// Turns the matching lines of one file (given in order, by their byte range) into numbered match and
/// context lines as ripgrep prints them: `before` lines ahead of each match and `after` lines behind it,
/// never twice, with a context line that matches reported as a match.
class LineCollector {
 public:
  LineCollector(std::string_view content, int before, int after, std::vector<GrepLine>& out)
      : m_content(content), m_before(before), m_after(after), m_out(out) {}

  /// The next matching line: [start, end) of `content`, without its "\n".
  void add_match(std::size_t start, std::size_t end);

  /// Emits the context still owed after the last match.
  void finish() { emit_after(INT64_MAX); }

 private:
  void emit_after(std::int64_t last_allowed);
  void emit(std::size_t start, std::size_t end, std::int64_t number, bool is_match);
  std::size_t line_end(std::size_t start) const;

  std::string_view m_content;
  int m_before;
  int m_after;
  std::vector<GrepLine>& m_out;
  std::size_t m_counted_to = 0;     // line numbers are counted up to this byte...
  std::int64_t m_counted_line = 1;  // ...which starts this line
  std::int64_t m_last_emitted = 0;  // the number of the last line emitted
  std::size_t m_last_end = 0;       // where that line ends (its "\n", or the end of the content)
  int m_after_left = 0;
};

}  // namespace agent_run
