// The event-stream half of the streamable HTTP transport: SSE replies to requests, resuming a
// reply stream that was cut, and the standalone stream for messages the server starts.
#include "base/text.h"
#include "mcp/http_transport.h"
#include "mcp/json_rpc_message.h"

namespace agent_run {

namespace {

using SteadyClock = std::chrono::steady_clock;

constexpr std::chrono::milliseconds k_default_retry{1000};  // when the server names no `retry`
constexpr int k_max_resumptions = 10;                       // of one reply stream
constexpr int k_max_idle_standalone_rounds = 3;             // standalone streams in a row that brought nothing
constexpr std::size_t k_quoted_bytes = 200;

bool is_event_stream(const HttpStream& stream) {
  return stream.status() == 200 && stream.header("Content-Type").find("text/event-stream") != std::string::npos;
}

}  // namespace

/// Reads the reply stream until the response to `awaited` came; a stream cut before it is resumed
/// (GET with Last-Event-ID, after the server's `retry`) as long as the server gave event ids.
Expected<void> HttpTransport::read_event_reply(HttpStream& stream, const Json* awaited, TimePoint deadline) {
  ResumePoint point;
  HttpStream* current = &stream;
  // Declared in this order so that the stream is destroyed before its exchange: the stream's end
  // detaches from the exchange's interrupt (the other order was a use after free, found by ASan).
  std::optional<Exchange> resumed_exchange;
  std::optional<HttpStream> resumed;
  for (int resumptions = 0;; ++resumptions) {
    SseParser parser;
    std::size_t delivered = 0;
    Expected<bool> answered = read_events(*current, parser, awaited, delivered);
    if (!parser.last_event_id().empty()) point.last_event_id = parser.last_event_id();
    if (parser.retry()) point.retry = parser.retry();
    if (answered && *answered) return {};
    HttpFailure failure = current->last_failure();
    if (!answered && (failure == HttpFailure::timeout || failure == HttpFailure::deadline)) return answered.error();
    if (!answered && failure != HttpFailure::broken) return answered.error();  // garbage, a line too long
    if (stopping()) return make_error("the connection to the MCP server was closed");
    if (point.last_event_id.empty()) {
      return answered ? make_error("the MCP server ended its event stream without answering request " + awaited->dump())
                      : answered.error();
    }
    if (resumptions == k_max_resumptions) {
      return make_error("the MCP server's event stream for request " + awaited->dump() + " was cut " +
                        std::to_string(k_max_resumptions) + " times; agent-run stopped resuming it");
    }
    auto pause = point.retry.value_or(k_default_retry);
    if (SteadyClock::now() + pause >= deadline) return make_error("no answer before the time limit");
    if (!wait_unless_stopping(pause)) return make_error("the connection to the MCP server was closed");
    resumed.reset();
    resumed_exchange.emplace(*this);
    auto next = resume(point, *resumed_exchange, deadline);
    if (!next) return next.error();
    resumed.emplace(std::move(*next));
    current = &*resumed;
  }
}

/// Delivers the stream's messages until the response to `awaited` (true) or the end of the stream
/// (false). Events with empty data (the priming event) and of other types are skipped.
Expected<bool> HttpTransport::read_events(HttpStream& stream, SseParser& parser, const Json* awaited,
                                          std::size_t& delivered) {
  for (;;) {
    auto line = stream.read_line();
    if (!line) return line.error();
    if (!*line) return false;
    auto event = parser.feed_line(**line);
    if (!event || trim(event->data).empty() || event->event != "message") continue;
    auto messages = messages_in(event->data);
    if (!messages) {
      std::string start = repair_utf8(event->data.substr(0, k_quoted_bytes));
      return make_error("the MCP server sent an event that is not JSON-RPC: '" + start + "'");
    }
    bool answered = false;
    for (const Json& message : *messages) answered = deliver(message, awaited) || answered;
    delivered += messages->size();
    if (answered) return true;
  }
}

Expected<HttpStream> HttpTransport::resume(const ResumePoint& point, Exchange& exchange, TimePoint deadline) {
  auto stream =
      HttpStream::open(request_for("GET", "", point.last_event_id), limits_until(deadline), exchange.interrupt());
  if (!stream) return stream.error();
  if (!is_event_stream(*stream)) {
    return make_error("resuming the MCP server's event stream after event '" + point.last_event_id + "' failed: HTTP " +
                      std::to_string(stream->status()));
  }
  return stream;
}

/// The standalone stream: opened, read, and opened again after the server's `retry` when it ends,
/// until the transport stops, the server says it has none, or it keeps failing.
/// The stream serves the session of `session_round` only: it ends when the server ends that session.
void HttpTransport::run_standalone_stream(std::shared_ptr<HttpInterrupt> first, std::uint64_t session_round) {
  ResumePoint point;
  int idle_rounds = 0;
  std::shared_ptr<HttpInterrupt> interrupt = std::move(first);
  while (standalone_current(session_round)) {
    bool again = false;
    {
      Exchange exchange(*this, interrupt);
      again = standalone_round(exchange, point, idle_rounds, session_round);
    }
    if (!again) return;
    if (idle_rounds >= k_max_idle_standalone_rounds) {
      give_up_standalone("the server ended it " + std::to_string(idle_rounds) + " times without sending anything");
      return;
    }
    interrupt = std::make_shared<HttpInterrupt>();
    std::unique_lock lock(m_mutex);
    auto over = [&] { return m_stopping || m_session_round != session_round; };
    if (m_stop_changed.wait_for(lock, point.retry.value_or(k_default_retry), over)) return;
  }
}

/// One standalone stream from GET to its end; false when there is no point in another.
bool HttpTransport::standalone_round(Exchange& exchange, ResumePoint& point, int& idle_rounds,
                                     std::uint64_t session_round) {
  HttpLimits limits = limits_until(SteadyClock::now() + std::chrono::hours(24));
  auto stream = HttpStream::open(request_for("GET", "", point.last_event_id), limits, exchange.interrupt());
  if (!standalone_current(session_round)) return false;
  if (!stream) {
    ++idle_rounds;
    if (idle_rounds >= k_max_idle_standalone_rounds) give_up_standalone(stream.error().message);
    return idle_rounds < k_max_idle_standalone_rounds;
  }
  if (!is_event_stream(*stream)) {  // 405 (or 404, 400) is how a server says it has none
    give_up_standalone("the server answered GET with HTTP " + std::to_string(stream->status()));
    return false;
  }
  SseParser parser;
  std::size_t delivered = 0;
  (void)read_events(*stream, parser, nullptr, delivered);
  if (!parser.last_event_id().empty()) point.last_event_id = parser.last_event_id();
  if (parser.retry()) point.retry = parser.retry();
  idle_rounds = delivered > 0 ? 0 : idle_rounds + 1;
  return true;
}

void HttpTransport::give_up_standalone(const std::string& why) {
  std::lock_guard lock(m_mutex);
  m_standalone_problem = "no stream for messages the server starts: " + why;
}

}  // namespace agent_run
