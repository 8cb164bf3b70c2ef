#pragma once

#include "base/expected.h"
#include "search/grep_search.h"

#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace agent_run {

/// The built-in search's compiled pattern, finding matching lines in a window of a file at a time. A
/// plain literal, or a set of them (`TODO|FIXME|XXX`), is found with memmem (or a case-blind search); a
/// regular expression goes through RE2's prefilter first (the literal atoms a match needs must be in the
/// window) and, when a single atom is required, RE2 runs only on the lines that hold it; otherwise RE2
/// scans the whole window.
class LineMatcher {
 public:
  static Expected<LineMatcher> compile(const GrepPatterns& patterns, bool case_insensitive);

  /// False when the file cannot hold a match.
  bool may_match(std::string_view content) const;

  struct Compiled;  // RE2 and the finders, defined where RE2 is included

  /// The matching lines of one window, in order. A scan remembers where each literal of a literal set
  /// occurs next, so the window is read once for each literal however many lines match.
  class Scan {
   public:
    Scan(const LineMatcher& matcher, std::string_view content);

    /// The next line holding a match, at or after `from` (a line start, never less than the last
    /// `from`): [start, end) without the "\n".
    std::optional<std::pair<std::size_t, std::size_t>> next_line(std::size_t from);

   private:
    std::optional<std::size_t> literal_match(std::size_t from);

    const Compiled& m_compiled;
    std::string_view m_content;
    std::vector<std::size_t> m_next;  // per literal: where it occurs next (npos: nowhere further)
    bool m_started = false;
  };

 private:
  std::shared_ptr<const Compiled> m_compiled;
};

}  // namespace agent_run
