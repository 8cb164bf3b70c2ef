#pragma once

#include "search/grep_search.h"
#include "search/line_matcher.h"

#include <cstddef>
#include <memory>
#include <optional>

namespace agent_run {

/// Searches one open file the way ripgrep reads it: a chunk at a time, whole lines as they arrive,
/// and no further than its first NUL byte (such a file is binary: it is left out, whatever matched
/// before the NUL). Memory stays at one chunk, plus the longest line and the context lines kept;
/// the buffer is reused from file to file (one ChunkedSearch per worker thread).
class ChunkedSearch {
 public:
  static constexpr std::size_t k_chunk_bytes = 128 * 1024;

  ChunkedSearch(const LineMatcher& matcher, const GrepRequest& request) : m_matcher(matcher), m_request(request) {}

  /// What `fd` (a regular file, read from its current offset) holds for the request; nullopt when
  /// nothing matched or the file is binary.
  std::optional<GrepFile> search(int fd);

 private:
  class FileState;

  /// Reads the next bytes after the `used` ones; 0 at the end of the file (or on an error).
  std::size_t read_more(int fd, std::size_t used);
  void ensure_room(std::size_t used);

  const LineMatcher& m_matcher;
  const GrepRequest& m_request;
  std::unique_ptr<char[]> m_buffer;
  std::size_t m_capacity = 0;
};

}  // namespace agent_run
