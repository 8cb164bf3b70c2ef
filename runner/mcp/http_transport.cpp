#include "mcp/http_transport.h"

#include "base/cancellation.h"
#include "base/text.h"
#include "mcp/json_rpc_message.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>

namespace agent_run {

namespace {

using SteadyClock = std::chrono::steady_clock;

constexpr std::chrono::milliseconds k_connect_limit{10000};
constexpr std::chrono::milliseconds k_longest_delete{5000};
constexpr std::chrono::milliseconds k_standalone_patience{5000};
constexpr std::size_t k_max_error_body = 64 * 1024;
constexpr std::size_t k_quoted_bytes = 300;

bool is_request(const Json& message) { return message.find("method") && message.find("id"); }

std::string snippet(std::string_view body) {
  std::string text(trim(body));
  if (text.size() > k_quoted_bytes) text = text.substr(0, k_quoted_bytes) + "...";
  return repair_utf8(text);
}

}  // namespace

HttpTransport::Exchange::Exchange(HttpTransport& transport, std::shared_ptr<HttpInterrupt> interrupt)
    : m_transport(transport), m_interrupt(std::move(interrupt)) {
  std::lock_guard lock(m_transport.m_mutex);
  m_transport.m_exchanges.insert(m_interrupt);
  if (m_transport.m_stopping) m_interrupt->interrupt();
}

HttpTransport::Exchange::~Exchange() {
  std::lock_guard lock(m_transport.m_mutex);
  m_transport.m_exchanges.erase(m_interrupt);
}

HttpLimits HttpTransport::limits_until(TimePoint deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - SteadyClock::now());
  left = std::max(left, std::chrono::milliseconds(1));
  return HttpLimits{std::min(k_connect_limit, left), left, left};
}

HttpTransport::HttpTransport(HttpEndpoint endpoint, const Cancellation* cancellation, std::size_t max_message_bytes)
    : m_endpoint(std::move(endpoint)), m_cancellation(cancellation), m_max_message_bytes(max_message_bytes) {}

HttpTransport::~HttpTransport() {
  close(std::chrono::milliseconds(0));
  if (m_wake >= 0) ::close(m_wake);
}

Expected<void> HttpTransport::open(TransportListener& listener) {
  if (m_cancellation && m_cancellation->cancelled()) {
    return make_error("agent-run is stopping (SIGINT or SIGTERM): nothing new is started");
  }
  m_listener = &listener;
  if (m_cancellation) {
    m_wake = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    m_watcher = std::thread([this] { watch_cancellation(); });
  }
  return {};
}

Expected<void> HttpTransport::send(const Json& message, TimePoint deadline) {
  if (stopping()) return make_error("the connection to the MCP server is closed");
  Exchange exchange(*this);
  const std::string session = session_id();
  auto stream = HttpStream::open(request_for("POST", message.dump(), ""), limits_until(deadline), exchange.interrupt());
  if (!stream) return stream.error();
  remember_session(*stream);
  const Json* awaited = is_request(message) ? message.find("id") : nullptr;
  return read_reply(*stream, message, awaited, deadline, session);
}

HttpRequest HttpTransport::request_for(const std::string& method, std::string body,
                                       const std::string& last_event_id) const {
  HttpRequest request;
  request.method = method;
  request.url = m_endpoint.url;
  request.headers = m_endpoint.headers;
  if (method == "POST") {
    request.headers.push_back({"Content-Type", "application/json"});
    request.headers.push_back({"Accept", "application/json, text/event-stream"});
  } else if (method == "GET") {
    request.headers.push_back({"Accept", "text/event-stream"});
  }
  {
    std::lock_guard lock(m_mutex);
    if (!m_session_id.empty()) request.headers.push_back({"Mcp-Session-Id", m_session_id});
    if (!m_protocol_version.empty()) request.headers.push_back({"MCP-Protocol-Version", m_protocol_version});
  }
  if (!last_event_id.empty()) request.headers.push_back({"Last-Event-ID", last_event_id});
  request.body = std::move(body);
  return request;
}

/// A request's reply is JSON, an event stream, or 202 (its response will come on the standalone
/// stream); anything answers a notification or a response, but an error status. A 404 to a request
/// that carried the session id `session` ends that session.
Expected<void> HttpTransport::read_reply(HttpStream& stream, const Json& sent, const Json* awaited,
                                         TimePoint deadline, const std::string& session) {
  const int status = stream.status();
  if (status == 404 && !session.empty()) {
    forget_session(session);
    return make_error("the MCP server no longer knows this session (HTTP 404 to " + sent.get_string("method") + ")");
  }
  if (status < 200 || status >= 300) return read_error_reply(stream, awaited);
  if (!awaited || status == 202) return {};
  const std::string type = stream.header("Content-Type");
  if (type.find("text/event-stream") != std::string::npos) return read_event_reply(stream, awaited, deadline);
  if (type.find("application/json") != std::string::npos) return read_json_reply(stream, awaited);
  return make_error("the MCP server answered " + sent.get_string("method") + " with HTTP " + std::to_string(status) +
                    " and Content-Type '" + type + "', neither JSON nor an event stream");
}

Expected<void> HttpTransport::read_json_reply(HttpStream& stream, const Json* awaited) {
  auto body = stream.read_body(m_max_message_bytes + 1);
  if (!body) return body.error();
  if (body->size() > m_max_message_bytes) {
    return make_error("the MCP server sent a reply of more than " + std::to_string(m_max_message_bytes) + " bytes");
  }
  auto messages = messages_in(*body);
  if (!messages) return make_error("the MCP server's reply is not JSON-RPC: '" + snippet(*body) + "'");
  bool answered = false;
  for (const Json& message : *messages) answered = deliver(message, awaited) || answered;
  if (!answered) return make_error("the MCP server's JSON reply holds no response to request " + awaited->dump());
  return {};
}

/// An error status. A JSON-RPC error in its body answers the request (servers often give it id
/// null); otherwise the status and the start of the body are the error.
Expected<void> HttpTransport::read_error_reply(HttpStream& stream, const Json* awaited) {
  auto body = stream.read_body(k_max_error_body);
  std::string text = body ? *body : std::string();
  auto messages = messages_in(text);
  if (awaited && messages && messages->size() == 1) {
    auto error = read_message(messages->front());
    if (error && error->kind == MessageKind::error) {
      Json answer = error_message(*awaited, error->error_code,
                                  error->error_message + " (HTTP " + std::to_string(stream.status()) + ")");
      deliver(answer, awaited);
      return {};
    }
  }
  std::string said = snippet(text);
  return make_error("the MCP server at " + url_for_messages(m_endpoint.url) + " answered HTTP " +
                    std::to_string(stream.status()) + (said.empty() ? "" : ": " + said));
}

bool HttpTransport::deliver(const Json& message, const Json* awaited) {
  const Json* id = message.find("id");
  bool answers = awaited && !message.find("method") && id && *id == *awaited;
  m_listener->on_message(message);
  return answers;
}

void HttpTransport::remember_session(const HttpStream& stream) {
  std::string id = stream.header("Mcp-Session-Id");
  if (id.empty()) return;
  std::lock_guard lock(m_mutex);
  if (m_session_id.empty()) m_session_id = id;
}

/// The session ends for every request from now on; the standalone stream of it ends too.
void HttpTransport::forget_session(const std::string& id) {
  std::lock_guard lock(m_mutex);
  if (m_session_id != id) return;  // another request's 404 came first
  m_session_id.clear();
  m_protocol_version.clear();
  m_session_lost = true;
  ++m_session_round;
  for (const auto& exchange : m_exchanges) exchange->interrupt();
  m_stop_changed.notify_all();
}

bool HttpTransport::session_lost() const {
  std::lock_guard lock(m_mutex);
  return m_session_lost;
}

bool HttpTransport::standalone_current(std::uint64_t session_round) const {
  std::lock_guard lock(m_mutex);
  return !m_stopping && m_session_round == session_round;
}

void HttpTransport::initialized(const std::string& protocol_version, TimePoint deadline) {
  auto first = std::make_shared<HttpInterrupt>();
  std::thread ended;  // the standalone stream of a session the server ended
  {
    std::lock_guard lock(m_mutex);
    m_protocol_version = protocol_version;
    m_session_lost = false;
    if (m_stopping || (m_standalone.joinable() && m_standalone_round == m_session_round)) return;
    ended = std::move(m_standalone);
    m_standalone_round = m_session_round;
    m_standalone_problem.clear();
    m_standalone = std::thread([this, first, round = m_session_round] { run_standalone_stream(first, round); });
  }
  if (ended.joinable()) ended.join();
  // Requests the server starts go only to an open standalone stream: it must be asked for
  // before the first tool call (its headers may come only with its first event).
  first->wait_sent(std::min(deadline, SteadyClock::now() + k_standalone_patience));
}

std::string HttpTransport::session_id() const {
  std::lock_guard lock(m_mutex);
  return m_session_id;
}

std::string HttpTransport::standalone_stream_problem() const {
  std::lock_guard lock(m_mutex);
  return m_standalone_problem;
}

bool HttpTransport::stopping() const {
  std::lock_guard lock(m_mutex);
  return m_stopping;
}

/// Waits `pause` unless the transport stops first; false when it stops.
bool HttpTransport::wait_unless_stopping(std::chrono::milliseconds pause) {
  std::unique_lock lock(m_mutex);
  return !m_stop_changed.wait_for(lock, pause, [&] { return m_stopping; });
}

void HttpTransport::watch_cancellation() {
  pollfd fds[2] = {{m_cancellation->wait_fd(), POLLIN, 0}, {m_wake, POLLIN, 0}};
  while (::poll(fds, 2, -1) < 0 && errno == EINTR) {
  }
  if (fds[0].revents == 0) return;  // woken by close()
  {
    std::lock_guard lock(m_mutex);
    m_stopping = true;
    for (const auto& exchange : m_exchanges) exchange->interrupt();
    m_stop_changed.notify_all();
  }
  m_listener->on_closed("agent-run is stopping (SIGINT or SIGTERM)");
}

void HttpTransport::close(std::chrono::milliseconds grace) {
  {
    std::lock_guard lock(m_mutex);
    if (m_closed) return;
    m_closed = true;
    m_stopping = true;
    for (const auto& exchange : m_exchanges) exchange->interrupt();
    m_stop_changed.notify_all();
  }
  if (m_wake >= 0) {
    std::uint64_t one = 1;
    [[maybe_unused]] ssize_t written = ::write(m_wake, &one, sizeof one);
  }
  if (m_watcher.joinable()) m_watcher.join();
  if (m_standalone.joinable()) m_standalone.join();
  if (grace.count() > 0 && m_listener) end_session(std::min(grace, k_longest_delete));
}

/// DELETE ends the session on the server; its answer does not matter (405: it keeps sessions itself).
void HttpTransport::end_session(std::chrono::milliseconds patience) {
  if (session_id().empty()) return;
  HttpLimits limits{std::min(k_connect_limit, patience), patience, patience};
  auto stream = HttpStream::open(request_for("DELETE", "", ""), limits);
  if (stream) (void)stream->read_body(k_max_error_body);
}

}  // namespace agent_run
