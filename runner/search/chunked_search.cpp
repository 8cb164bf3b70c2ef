#include "search/chunked_search.h"

#include "search/line_collector.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace agent_run {

/// One file's search as its windows arrive: the lines found so far and whether more are wanted.
class ChunkedSearch::FileState {
 public:
  FileState(const LineMatcher& matcher, const GrepRequest& request)
      : m_matcher(matcher), m_request(request), m_collector(request.before, request.after, m_file.lines) {}

  /// False once the answer for this file is complete (the rest is only read to look for a NUL byte).
  bool wants_more() const { return m_wants_more; }

  /// Searches the lines of window[from, end): `window` starts at file offset `base` and ends at a line end.
  void search(std::string_view window, std::size_t base, std::size_t from) {
    if (m_request.output == GrepOutput::content) return search_content(window, base, from);
    if (!m_matcher.may_match(window.substr(from))) return;
    LineMatcher::Scan scan(m_matcher, window);
    for (auto line = scan.next_line(from); line; line = scan.next_line(line->second + 1)) {
      ++m_file.match_count;
      if (m_request.output == GrepOutput::files_with_matches) {
        m_wants_more = false;
        return;
      }
    }
  }

  /// The file offset where the bytes still needed start, once everything before `searched` is searched:
  /// `searched` is a line start, and `window` (from file offset `base`) holds the file up to it.
  std::size_t keep_from(std::string_view window, std::size_t base, std::size_t searched) {
    if (!m_wants_more || m_request.output != GrepOutput::content) return searched;
    m_collector.see(window, base);
    return m_collector.keep_from(searched);
  }

  std::optional<GrepFile> finish() {
    if (m_file.match_count == 0) return std::nullopt;
    return std::move(m_file);
  }

 private:
  void search_content(std::string_view window, std::size_t base, std::size_t from) {
    m_collector.see(window, base);
    if (m_matcher.may_match(window.substr(from))) {
      LineMatcher::Scan scan(m_matcher, window);
      for (auto line = scan.next_line(from); line; line = scan.next_line(line->second + 1)) {
        m_collector.add_match(base + line->first, base + line->second);
        // The match after max_results is the last one that matters: the answer stops there.
        if (++m_file.match_count > m_request.max_results) {
          m_wants_more = false;
          return;
        }
      }
    }
    m_collector.end_window();
  }

  const LineMatcher& m_matcher;
  const GrepRequest& m_request;
  GrepFile m_file;
  LineCollector m_collector;
  bool m_wants_more = true;
};

std::optional<GrepFile> ChunkedSearch::search(int fd) {
  FileState state(m_matcher, m_request);
  std::size_t used = 0;      // bytes in the buffer
  std::size_t searched = 0;  // the buffer's bytes before this are searched; it is a line start
  std::size_t base = 0;      // the file offset of the buffer's first byte
  for (;;) {
    if (used == m_capacity && used > 0) {  // drop what is no longer needed, or grow for a long line
      const std::size_t keep =
          state.keep_from(std::string_view(m_buffer.get(), searched), base, base + searched) - base;
      std::memmove(m_buffer.get(), m_buffer.get() + keep, used - keep);
      used -= keep;
      searched -= keep;
      base += keep;
      ensure_room(used);
    }
    const std::size_t got = read_more(fd, used);
    if (got > 0 && std::memchr(m_buffer.get() + used, '\0', got) != nullptr) return std::nullopt;  // binary
    used += got;
    std::size_t end = used;  // the searchable part: up to the last line end (all of it at the end of the file)
    if (got > 0) {
      const void* last = ::memrchr(m_buffer.get() + searched, '\n', used - searched);
      end = last == nullptr ? searched : static_cast<const char*>(last) - m_buffer.get() + 1;
    }
    if (!state.wants_more()) {
      end = used;
    } else if (end > searched) {
      state.search(std::string_view(m_buffer.get(), end), base, searched);
    }
    searched = end;
    if (got == 0) break;
  }
  if (m_capacity > 4 * k_chunk_bytes) m_capacity = 0;  // a very long line made it grow: give that back
  if (m_capacity == 0) m_buffer.reset();
  return state.finish();
}

std::size_t ChunkedSearch::read_more(int fd, std::size_t used) {
  if (m_capacity == 0) ensure_room(0);
  for (;;) {
    ssize_t n = ::read(fd, m_buffer.get() + used, m_capacity - used);
    if (n < 0 && errno == EINTR) continue;
    return n < 0 ? 0 : static_cast<std::size_t>(n);
  }
}

void ChunkedSearch::ensure_room(std::size_t used) {
  if (used < m_capacity) return;
  const std::size_t capacity = m_capacity == 0 ? k_chunk_bytes : m_capacity * 2;
  std::unique_ptr<char[]> bigger(new char[capacity]);  // not zero-filled: it is read into
  if (used > 0) std::memcpy(bigger.get(), m_buffer.get(), used);
  m_buffer = std::move(bigger);
  m_capacity = capacity;
}

}  // namespace agent_run
