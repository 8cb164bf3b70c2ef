#include "net/sse_parser.h"

namespace agent_run {

std::optional<SseEvent> SseParser::feed_line(std::string_view line) {
  if (m_first_line) {
    m_first_line = false;
    if (line.substr(0, 3) == "\xEF\xBB\xBF") line.remove_prefix(3);  // a byte order mark
  }
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.empty()) {
    m_last_event_id = m_id_buffer;  // set at each dispatch, even of an event without data
    std::optional<SseEvent> event;
    if (m_has_data) event = std::move(m_pending);
    m_pending = SseEvent{};
    m_has_data = false;
    m_has_fields = false;
    return event;
  }
  if (line.front() == ':') return std::nullopt;  // a comment, e.g. a keep-alive
  std::string_view name = line;
  std::string_view value;
  if (auto colon = line.find(':'); colon != std::string_view::npos) {
    name = line.substr(0, colon);
    value = line.substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  }
  apply_field(name, value);
  return std::nullopt;
}

void SseParser::apply_field(std::string_view name, std::string_view value) {
  m_has_fields = true;
  if (name == "data") {
    if (m_has_data) m_pending.data += '\n';
    m_pending.data += value;
    m_has_data = true;
  } else if (name == "event") {
    m_pending.event = value.empty() ? "message" : std::string(value);
  } else if (name == "id") {
    if (value.find('\0') == std::string_view::npos) {
      m_pending.id = value;
      m_id_buffer = value;
    }
  } else if (name == "retry") {
    bool digits =
        !value.empty() && value.size() <= 9 && value.find_first_not_of("0123456789") == std::string_view::npos;
    if (digits) m_retry = std::chrono::milliseconds(std::stoll(std::string(value)));
  }
  // Unknown fields are ignored, as the standard says.
}

}  // namespace agent_run
