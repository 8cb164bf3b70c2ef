#pragma once

#include "mcp/transport.h"
#include "net/http_client.h"
#include "net/sse_parser.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace agent_run {

class Cancellation;

/// Where a streamable HTTP MCP server is, and the headers every request carries (a bearer token,
/// for instance).
struct HttpEndpoint {
  std::string url;
  std::vector<HttpHeader> headers;
};

/// The MCP streamable HTTP transport (2025-03-26 and later): every message is a POST that accepts
/// JSON or an SSE stream in reply; the server's session id, when it gives one, goes with every
/// later request and the session is ended with DELETE; a stateless server gives none. Requests the
/// server starts on its own come on a standalone GET stream, opened after initialization and kept
/// open (re-opened after the server's `retry` when it drops). A reply stream that is cut before
/// the response came is resumed with GET and Last-Event-ID after the server's `retry`. Reads block
/// the sending thread; close() and the run's cancellation interrupt every exchange at once.
class HttpTransport final : public McpTransport {
 public:
  static constexpr std::size_t k_default_max_message_bytes = 16u << 20;

  HttpTransport(HttpEndpoint endpoint, const Cancellation* cancellation,
                std::size_t max_message_bytes = k_default_max_message_bytes);
  ~HttpTransport() override;

  Expected<void> open(TransportListener& listener) override;
  Expected<void> send(const Json& message, TimePoint deadline) override;
  void initialized(const std::string& protocol_version, TimePoint deadline) override;
  void close(std::chrono::milliseconds grace) override;
  TransportFacts facts() const override { return {}; }
  bool session_lost() const override;

  /// The session id the server gave ("" for a stateless server), and why there is no standalone
  /// stream ("" while there is one or none was tried): for tests and `agent-run mcp`.
  std::string session_id() const;
  std::string standalone_stream_problem() const;

 private:
  /// One HTTP exchange in flight: registered while it lives, so that close() and the run's
  /// cancellation can interrupt it; interrupted at once when the transport is stopping already.
  class Exchange {
   public:
    explicit Exchange(HttpTransport& transport,
                      std::shared_ptr<HttpInterrupt> interrupt = std::make_shared<HttpInterrupt>());
    ~Exchange();
    Exchange(const Exchange&) = delete;
    Exchange& operator=(const Exchange&) = delete;
    HttpInterrupt* interrupt() const { return m_interrupt.get(); }

   private:
    HttpTransport& m_transport;
    std::shared_ptr<HttpInterrupt> m_interrupt;
  };
  /// Where a cut stream resumes: the last event id seen and the server's reconnection time.
  struct ResumePoint {
    std::string last_event_id;
    std::optional<std::chrono::milliseconds> retry;
  };

  // http_transport.cpp: requests and their replies.
  static HttpLimits limits_until(TimePoint deadline);  // every limit at the time left, connecting at most 10 s
  HttpRequest request_for(const std::string& method, std::string body, const std::string& last_event_id) const;
  Expected<void> read_reply(HttpStream& stream, const Json& sent, const Json* awaited, TimePoint deadline,
                            const std::string& session);
  Expected<void> read_json_reply(HttpStream& stream, const Json* awaited);
  Expected<void> read_error_reply(HttpStream& stream, const Json* awaited);
  bool deliver(const Json& message, const Json* awaited);
  void remember_session(const HttpStream& stream);
  void forget_session(const std::string& id);
  bool standalone_current(std::uint64_t session_round) const;
  void watch_cancellation();
  void end_session(std::chrono::milliseconds patience);
  bool stopping() const;
  bool wait_unless_stopping(std::chrono::milliseconds pause);

  // http_event_streams.cpp: SSE replies, their resumption, the standalone stream.
  Expected<void> read_event_reply(HttpStream& stream, const Json* awaited, TimePoint deadline);
  Expected<bool> read_events(HttpStream& stream, SseParser& parser, const Json* awaited, std::size_t& delivered);
  Expected<HttpStream> resume(const ResumePoint& point, Exchange& exchange, TimePoint deadline);
  void run_standalone_stream(std::shared_ptr<HttpInterrupt> first, std::uint64_t session_round);
  bool standalone_round(Exchange& exchange, ResumePoint& point, int& idle_rounds, std::uint64_t session_round);
  void give_up_standalone(const std::string& why);

  HttpEndpoint m_endpoint;
  const Cancellation* m_cancellation;
  std::size_t m_max_message_bytes;
  TransportListener* m_listener = nullptr;

  mutable std::mutex m_mutex;  // guards everything below it
  std::condition_variable m_stop_changed;
  bool m_stopping = false;
  bool m_closed = false;
  std::string m_session_id;
  bool m_session_lost = false;     // a 404 ended the session; until the next initialized()
  std::uint64_t m_session_round = 0;     // counts lost sessions: the standalone stream of an older one ends
  std::uint64_t m_standalone_round = 0;  // the round m_standalone serves
  std::string m_protocol_version;  // sent as MCP-Protocol-Version once agreed
  std::string m_standalone_problem;
  std::set<std::shared_ptr<HttpInterrupt>> m_exchanges;

  int m_wake = -1;           // eventfd: wakes the cancellation watcher for close()
  std::thread m_watcher;     // interrupts everything when the run's cancellation fires
  std::thread m_standalone;  // the standalone GET stream
};

}  // namespace agent_run
