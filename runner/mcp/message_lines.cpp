#include "mcp/message_lines.h"

namespace agent_run {

std::string message_line(const Json& message) { return message.dump() + "\n"; }

std::optional<Expected<std::string>> MessageLines::next() {
  std::size_t end = m_buffer.find('\n', m_scanned);
  if (end == std::string::npos) {
    m_scanned = m_buffer.size();
    if (m_buffer.size() > m_max_line_bytes) {
      return Expected<std::string>(
          make_error("a line of more than " + std::to_string(m_max_line_bytes) + " bytes on its stdout"));
    }
    return std::nullopt;
  }
  if (end > m_max_line_bytes) {
    return Expected<std::string>(
        make_error("a line of more than " + std::to_string(m_max_line_bytes) + " bytes on its stdout"));
  }
  std::string line = m_buffer.substr(0, end);
  m_buffer.erase(0, end + 1);
  m_scanned = 0;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return Expected<std::string>(std::move(line));
}

}  // namespace agent_run
