#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace agent_run {

/// One server-sent event: its type (`message` when the stream names none) and its data lines
/// joined with '\n'.
struct SseEvent {
  std::string event = "message";
  std::string data;
  std::string id;
};

/// Turns the lines of a text/event-stream body into events, by the WHATWG rules: a blank line
/// dispatches, `:` starts a comment (keep-alive), `field: value` sets a field (one leading space
/// stripped), several `data` lines are joined with '\n', a trailing '\r' is dropped. Pure: the
/// lines come from whoever reads the socket.
class SseParser {
 public:
  /// Feeds one line (without its '\n'); returns the event it completes, if any.
  std::optional<SseEvent> feed_line(std::string_view line);

  /// True while an event has begun but no blank line has ended it: at the end of the body such
  /// an event is discarded, as the standard says, and a caller may treat it as a cut stream.
  bool has_pending() const { return m_has_data || m_has_fields; }

 private:
  void apply_field(std::string_view name, std::string_view value);

  SseEvent m_pending;
  bool m_has_data = false;
  bool m_has_fields = false;
  bool m_first_line = true;
};

}  // namespace agent_run
