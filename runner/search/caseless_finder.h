#pragma once

#include <string>
#include <string_view>

namespace agent_run {

/// Whether a CaselessFinder ignores ASCII case (its purpose) or, for a case-sensitive search, matches exactly.
enum class FinderCase { ascii_blind, exact };

/// Finds a needle in text without regard to ASCII case, 16 bytes at a time: each block is compared
/// with the needle's two rarest bytes (both cases of a letter) at their offsets, and only where both
/// agree is the whole needle compared. No lowered copy of the text is made. With FinderCase::exact it
/// looks for the needle's rarest byte with memchr (faster than glibc's memmem on source code), and
/// falls back to the blocks where that byte turns out to be common.
class CaselessFinder {
 public:
  explicit CaselessFinder(std::string needle, FinderCase letter_case = FinderCase::ascii_blind);

  /// Where the needle first starts at or after `from`, or npos.
  std::size_t find(std::string_view text, std::size_t from) const;

 private:
  bool matches_at(std::string_view text, std::size_t start) const;
  /// Exact: memchr (the C library's widest vectors) for the rarest byte, each hit checked whole.
  std::size_t find_rare_byte(std::string_view text, std::size_t from) const;
  /// Either case: 16-byte blocks compared with the two rarest bytes.
  std::size_t find_in_blocks(std::string_view text, std::size_t from) const;

  std::string m_lower;  // the needle, ASCII-lowered (as given when exact)
  bool m_exact = false;
  std::size_t m_first = 0;  // offsets of the two bytes the blocks are compared with
  std::size_t m_second = 0;
};

}  // namespace agent_run
