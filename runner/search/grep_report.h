#pragma once

#include "search/grep_search.h"

#include <cstdint>
#include <string>

namespace agent_run {

/// The grep tool's answer, built from the files a search hands on, in ripgrep's `--heading` format
/// (diagnostics-measured.md §3.6): the path on its own line, `12:text` for a match, `13-text` for a
/// context line, `--` between groups of context that are not adjacent, a blank line between files;
/// `path` alone (files_with_matches) or `path:N` (count). Long lines are cut, and the answer stops
/// after max_results matching lines (or files) with a note saying so: since both search backends
/// hand on the same files, the answer is the same byte for byte whichever ran.
class GrepReport {
 public:
  explicit GrepReport(const GrepRequest& request) : m_request(request) {}

  /// The sink for a search: takes one file; says stop once the answer is complete.
  WalkStep add(GrepFile&& file);

  /// The text the model reads.
  std::string text() const;

  static constexpr std::size_t k_max_line_bytes = 500;
  static constexpr std::size_t k_max_output_bytes = 40000;

 private:
  void add_lines(const GrepFile& file);
  void append(const std::string& line);

  const GrepRequest& m_request;
  std::string m_out;
  std::size_t m_results = 0;      // matching lines (content) or files shown so far
  std::size_t m_files = 0;        // files with something shown
  std::int64_t m_last_match = 0;  // line number of the last match shown
  bool m_more = false;            // results exist beyond max_results
  bool m_full = false;            // the byte cap was reached
};

/// `line` cut to GrepReport::k_max_line_bytes (on a UTF-8 boundary) with a note of its full size.
std::string cut_long_line(const std::string& line);

}  // namespace agent_run
