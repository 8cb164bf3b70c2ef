#include "search/caseless_finder.h"

#include <cstdint>
#include <cstring>

namespace agent_run {

namespace {

char ascii_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c | 0x20) : c; }
char ascii_upper(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c & ~0x20) : c; }

/// A rough frequency of a byte in source code and prose (higher is more common).
int frequency(char c) {
  static const std::string_view k_letters = "etaoinsrhldcumfpgwybvkxjqz";
  if (c >= 'a' && c <= 'z') return 60 - 2 * static_cast<int>(k_letters.find(c));
  switch (c) {
    case ' ': return 100;
    case '\t':
    case '\n': return 50;
    case '_': return 30;
    case '(':
    case ')':
    case '.':
    case '0':
    case '1': return 20;
    case ';':
    case ',':
    case '=':
    case '/':
    case '-': return 15;
    case '"':
    case '*':
    case ':': return 10;
    case '<':
    case '>':
    case '{':
    case '}': return 8;
    case '[':
    case ']':
    case '\'': return 6;
    default: break;
  }
  if (c >= '2' && c <= '9') return 10;
  return 3;
}

using Block = unsigned char __attribute__((vector_size(16)));

Block splat(char c) {
  Block block;
  for (int i = 0; i < 16; ++i) block[i] = static_cast<unsigned char>(c);
  return block;
}

Block load(const char* at) {
  Block block;
  std::memcpy(&block, at, 16);
  return block;
}

/// 0xFF in each byte of `block` that is `lower` or `upper`.
Block equal_either(Block block, Block lower, Block upper) {
  return reinterpret_cast<Block>((block == lower) | (block == upper));
}

}  // namespace

CaselessFinder::CaselessFinder(std::string needle, FinderCase letter_case)
    : m_lower(std::move(needle)), m_exact(letter_case == FinderCase::exact) {
  if (!m_exact) {
    for (char& c : m_lower) c = ascii_lower(c);
  }
  // Searched exactly, a capital letter is rarer in code and prose than the same letter in lower case.
  auto rarity = [this](std::size_t i) {
    const char c = m_lower[i];
    return m_exact && c >= 'A' && c <= 'Z' ? frequency(ascii_lower(c)) / 4 : frequency(ascii_lower(c));
  };
  for (std::size_t i = 1; i < m_lower.size(); ++i) {
    if (rarity(i) < rarity(m_first)) m_first = i;
  }
  m_second = m_first == 0 && m_lower.size() > 1 ? 1 : 0;
  for (std::size_t i = 0; i < m_lower.size(); ++i) {
    if (i != m_first && rarity(i) < rarity(m_second)) m_second = i;
  }
}

bool CaselessFinder::matches_at(std::string_view text, std::size_t start) const {
  if (start + m_lower.size() > text.size()) return false;
  if (m_exact) return std::memcmp(text.data() + start, m_lower.data(), m_lower.size()) == 0;
  for (std::size_t i = 0; i < m_lower.size(); ++i) {
    if (ascii_lower(text[start + i]) != m_lower[i]) return false;
  }
  return true;
}

std::size_t CaselessFinder::find(std::string_view text, std::size_t from) const {
  if (m_lower.empty()) return from <= text.size() ? from : std::string_view::npos;
  return m_exact ? find_rare_byte(text, from) : find_in_blocks(text, from);
}

std::size_t CaselessFinder::find_rare_byte(std::string_view text, std::size_t from) const {
  const std::size_t size = text.size();
  const char rare = m_lower[m_first];
  std::size_t misses = 0;
  for (std::size_t start = from; start + m_lower.size() <= size;) {
    // The needle can start no later than size - length: its rare byte lies no further than that plus m_first.
    const void* hit = std::memchr(text.data() + start + m_first, rare, size - m_lower.size() + 1 - start);
    if (hit == nullptr) return std::string_view::npos;
    const std::size_t candidate = static_cast<std::size_t>(static_cast<const char*>(hit) - text.data()) - m_first;
    if (matches_at(text, candidate)) return candidate;
    start = candidate + 1;
    // A "rare" byte that is common in this text: memchr would stop every few bytes, the blocks do better.
    if (++misses > 16 && misses * 64 > start - from) return find_in_blocks(text, start);
  }
  return std::string_view::npos;
}

std::size_t CaselessFinder::find_in_blocks(std::string_view text, std::size_t from) const {
  const std::size_t size = text.size();
  const std::size_t reach = std::max(m_first, m_second) + 16;  // bytes a block comparison reads past its start
  const Block first_lower = splat(m_lower[m_first]);
  const Block first_upper = m_exact ? first_lower : splat(ascii_upper(m_lower[m_first]));
  const Block second_lower = splat(m_lower[m_second]);
  const Block second_upper = m_exact ? second_lower : splat(ascii_upper(m_lower[m_second]));
  std::size_t start = from;
  for (; start + std::max(reach, m_lower.size()) <= size; start += 16) {
    const char* at = text.data() + start;
    Block hits = equal_either(load(at + m_first), first_lower, first_upper) &
                 equal_either(load(at + m_second), second_lower, second_upper);
    std::uint64_t halves[2];
    std::memcpy(halves, &hits, 16);
    for (int half = 0; half < 2; ++half) {
      for (std::uint64_t bits = halves[half]; bits != 0;) {
        const int byte = __builtin_ctzll(bits) / 8;
        const std::size_t candidate = start + static_cast<std::size_t>(half * 8 + byte);
        if (matches_at(text, candidate)) return candidate;
        bits &= ~(std::uint64_t{0xFF} << (byte * 8));
      }
    }
  }
  for (; start + m_lower.size() <= size; ++start) {
    if (matches_at(text, start)) return start;
  }
  return std::string_view::npos;
}

}  // namespace agent_run
