#include "search/line_collector.h"

#include <algorithm>

namespace agent_run {

void LineCollector::add_match(std::size_t start, std::size_t end) {
  m_counted_line += std::count(m_content.begin() + static_cast<std::ptrdiff_t>(m_counted_to),
                               m_content.begin() + static_cast<std::ptrdiff_t>(start), '\n');
  m_counted_to = start;
  const std::int64_t number = m_counted_line;
  emit_after(number - 1);
  const std::int64_t first = std::max(number - m_before, m_last_emitted + 1);
  std::vector<std::size_t> starts;  // of the context lines before the match, nearest first
  std::size_t at = start;
  for (std::int64_t line = number - 1; line >= first; --line) {
    at = at < 2 ? 0 : m_content.rfind('\n', at - 2) + 1;  // at - 1 is the "\n" ending the line above
    starts.push_back(at);
  }
  std::int64_t line = number - static_cast<std::int64_t>(starts.size());
  for (auto s = starts.rbegin(); s != starts.rend(); ++s) emit(*s, line_end(*s), line++, false);
  emit(start, end, number, true);
  m_after_left = m_after;
}

void LineCollector::emit_after(std::int64_t last_allowed) {
  while (m_after_left > 0 && m_last_emitted < last_allowed) {
    std::size_t next = m_last_end + 1;
    if (m_last_end >= m_content.size() || next >= m_content.size()) return;  // no line after the last one
    emit(next, line_end(next), m_last_emitted + 1, false);
    --m_after_left;
  }
}

void LineCollector::emit(std::size_t start, std::size_t end, std::int64_t number, bool is_match) {
  m_out.push_back(GrepLine{number, is_match, std::string(m_content.substr(start, end - start))});
  m_last_emitted = number;
  m_last_end = end;
}

std::size_t LineCollector::line_end(std::size_t start) const {
  std::size_t end = m_content.find('\n', start);
  return end == std::string_view::npos ? m_content.size() : end;
}

}  // namespace agent_run
