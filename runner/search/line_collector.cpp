#include "search/line_collector.h"

#include <algorithm>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace agent_run {

namespace {

/// The "\n" bytes in [begin, end), 16 at a time where SSE2 is there (it always is on x86-64): each
/// block's compare (0xFF per newline) is subtracted from byte counters, which are summed (psadbw)
/// every 255 blocks, before one could overflow. No popcount: without -mpopcnt it is a libgcc call.
std::int64_t count_newlines(const char* begin, const char* end) {
  std::int64_t count = 0;
#ifdef __SSE2__
  const __m128i newline = _mm_set1_epi8('\n');
  while (end - begin >= 16) {
    __m128i counters = _mm_setzero_si128();
    for (int blocks = 0; blocks < 255 && end - begin >= 16; ++blocks, begin += 16) {
      const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(begin));
      counters = _mm_sub_epi8(counters, _mm_cmpeq_epi8(block, newline));
    }
    const __m128i sums = _mm_sad_epu8(counters, _mm_setzero_si128());
    count += _mm_cvtsi128_si64(sums) + _mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums));
  }
#endif
  return count + std::count(begin, end, '\n');
}

}  // namespace

void LineCollector::add_match(std::size_t start, std::size_t end) {
  count_lines_to(start);
  const std::int64_t number = m_counted_line;
  emit_after(number - 1);
  const std::int64_t first = std::max(number - m_before, m_last_emitted + 1);
  std::vector<std::size_t> starts;  // of the context lines before the match, nearest first
  std::size_t at = start;
  for (std::int64_t line = number - 1; line >= first; --line) {
    at = line_start_above(at);
    starts.push_back(at);
  }
  std::int64_t line = number - static_cast<std::int64_t>(starts.size());
  for (auto s = starts.rbegin(); s != starts.rend(); ++s) emit(*s, line_end(*s), line++, false);
  emit(start, end, number, true);
  m_after_left = m_after;
}

std::size_t LineCollector::keep_from(std::size_t searched) {
  count_lines_to(searched);
  std::size_t at = searched;
  for (int line = 0; line < m_before && at > m_base; ++line) at = line_start_above(at);
  return at;
}

void LineCollector::count_lines_to(std::size_t offset) {
  if (offset <= m_counted_to) return;
  const char* window = m_window.data();
  m_counted_line += count_newlines(window + (m_counted_to - m_base), window + (offset - m_base));
  m_counted_to = offset;
}

void LineCollector::emit_after(std::int64_t last_allowed) {
  while (m_after_left > 0 && m_last_emitted < last_allowed) {
    std::size_t next = m_last_end + 1;
    if (m_last_end >= window_end() || next >= window_end()) return;  // no line after the last one (yet)
    emit(next, line_end(next), m_last_emitted + 1, false);
    --m_after_left;
  }
}

void LineCollector::emit(std::size_t start, std::size_t end, std::int64_t number, bool is_match) {
  m_out.push_back(GrepLine{number, is_match, std::string(m_window.substr(start - m_base, end - start))});
  m_last_emitted = number;
  m_last_end = end;
}

std::size_t LineCollector::line_end(std::size_t start) const {
  std::size_t end = m_window.find('\n', start - m_base);
  return end == std::string_view::npos ? window_end() : m_base + end;
}

std::size_t LineCollector::line_start_above(std::size_t start) const {
  // start - 1 is the "\n" ending the line above; the window starts at a line start.
  const std::size_t at = start - m_base;
  return m_base + (at < 2 ? 0 : m_window.rfind('\n', at - 2) + 1);
}

}  // namespace agent_run
