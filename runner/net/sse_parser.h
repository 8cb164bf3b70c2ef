#pragma once

#include <chrono>
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

  /// The stream's last event id: the last `id` field of a dispatched event, kept across events
  /// (an event without data sets it too), which a client sends as Last-Event-ID when it
  /// reconnects. "" for none; an id in an event the stream cut off before its end does not count.
  const std::string& last_event_id() const { return m_last_event_id; }
  /// The reconnection time the stream's last valid `retry` field set (digits only, in ms), if any.
  std::optional<std::chrono::milliseconds> retry() const { return m_retry; }

 private:
  void apply_field(std::string_view name, std::string_view value);

  std::string m_id_buffer;      // the last `id` field, dispatched or not
  std::string m_last_event_id;  // m_id_buffer as of the last dispatch
  std::optional<std::chrono::milliseconds> m_retry;
  SseEvent m_pending;
  bool m_has_data = false;
  bool m_has_fields = false;
  bool m_first_line = true;
};

}  // namespace agent_run
