#include "base/base64.h"

#include <array>

namespace agent_run {

namespace {

constexpr char k_alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<int, 256> decoding_table() {
  std::array<int, 256> table{};
  for (int& value : table) value = -1;
  for (int i = 0; i < 64; ++i) table[static_cast<unsigned char>(k_alphabet[i])] = i;
  return table;
}

}  // namespace

std::string base64_encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    unsigned value = (static_cast<unsigned char>(bytes[i]) << 16) | (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                     static_cast<unsigned char>(bytes[i + 2]);
    out += k_alphabet[(value >> 18) & 63];
    out += k_alphabet[(value >> 12) & 63];
    out += k_alphabet[(value >> 6) & 63];
    out += k_alphabet[value & 63];
  }
  if (i < bytes.size()) {
    unsigned value = static_cast<unsigned char>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) value |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    out += k_alphabet[(value >> 18) & 63];
    out += k_alphabet[(value >> 12) & 63];
    out += i + 1 < bytes.size() ? k_alphabet[(value >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

Expected<std::string> base64_decode(std::string_view text) {
  static constexpr std::array<int, 256> k_table = decoding_table();
  std::string out;
  unsigned value = 0;
  int bits = 0;
  for (char c : text) {
    if (c == '=') break;
    int digit = k_table[static_cast<unsigned char>(c)];
    if (digit < 0) return make_error("invalid base64");
    value = (value << 6) | static_cast<unsigned>(digit);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((value >> bits) & 0xFF);
    }
  }
  return out;
}

}  // namespace agent_run
