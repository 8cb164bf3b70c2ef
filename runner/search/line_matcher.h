#pragma once

#include "base/expected.h"
#include "search/grep_search.h"

#include <memory>
#include <optional>
#include <string_view>
#include <utility>

namespace agent_run {

/// The built-in search's compiled pattern, finding matching lines in a whole file at a time. A plain
/// literal is found with memmem (or a case-blind memchr search); a regular expression goes through RE2's
/// prefilter first (the literal atoms a match needs must be in the file) and, when a single atom is
/// required, RE2 runs only on the lines that hold it; otherwise RE2 scans the whole file.
class LineMatcher {
 public:
  static Expected<LineMatcher> compile(const GrepPatterns& patterns, bool case_insensitive);

  /// False when the file cannot hold a match.
  bool may_match(std::string_view content) const;

  /// The next line holding a match, at or after `from` (a line start): [start, end) without the "\n".
  std::optional<std::pair<std::size_t, std::size_t>> next_line(std::string_view content, std::size_t from) const;

  struct Compiled;  // RE2 and the finders, defined where RE2 is included

 private:
  std::shared_ptr<const Compiled> m_compiled;
};

}  // namespace agent_run
