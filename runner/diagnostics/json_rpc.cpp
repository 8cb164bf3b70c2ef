#include "diagnostics/json_rpc.h"

#include <cctype>
#include <charconv>

namespace agent_run {

namespace {

constexpr std::size_t k_max_header_bytes = 8 * 1024;
constexpr std::size_t k_max_message_bytes = 256 * 1024 * 1024;

bool starts_with_ignoring_case(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[i])) != std::tolower(static_cast<unsigned char>(prefix[i]))) {
      return false;
    }
  }
  return true;
}

/// The Content-Length of a header block (lines separated by CRLF), or nullopt.
std::optional<std::size_t> content_length(std::string_view header) {
  constexpr std::string_view k_name = "content-length:";
  while (!header.empty()) {
    std::size_t end = header.find("\r\n");
    std::string_view line = header.substr(0, end);
    if (starts_with_ignoring_case(line, k_name)) {
      std::string_view value = line.substr(k_name.size());
      while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
      std::size_t length = 0;
      auto [at, ec] = std::from_chars(value.data(), value.data() + value.size(), length);
      if (ec != std::errc() || at == value.data()) return std::nullopt;
      return length;
    }
    if (end == std::string_view::npos) break;
    header.remove_prefix(end + 2);
  }
  return std::nullopt;
}

}  // namespace

std::string frame_json_rpc(const Json& message) {
  std::string body = message.dump();
  return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

std::optional<Expected<Json>> JsonRpcReader::next() {
  std::size_t header_end = m_buffer.find("\r\n\r\n");
  if (header_end == std::string::npos) {
    if (m_buffer.size() > k_max_header_bytes) return Expected<Json>(make_error("no JSON-RPC header in the output"));
    return std::nullopt;
  }
  std::optional<std::size_t> length = content_length(std::string_view(m_buffer).substr(0, header_end));
  if (!length) return Expected<Json>(make_error("a JSON-RPC header without Content-Length"));
  if (*length > k_max_message_bytes) return Expected<Json>(make_error("an absurd Content-Length"));
  std::size_t body_start = header_end + 4;
  if (m_buffer.size() < body_start + *length) return std::nullopt;
  Expected<Json> message = parse_json(std::string_view(m_buffer).substr(body_start, *length));
  m_buffer.erase(0, body_start + *length);
  if (message && !message->is_object()) return Expected<Json>(make_error("a JSON-RPC message that is not an object"));
  return message;
}

}  // namespace agent_run
