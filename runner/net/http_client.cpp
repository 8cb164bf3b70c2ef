#include "net/http_client.h"

#include "net/poco_status.h"

#include <Poco/Exception.h>
#include <Poco/Net/Context.h>
#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/Net/HTTPSClientSession.h>
#include <Poco/Net/NetException.h>
#include <Poco/Net/RejectCertificateHandler.h>
#include <Poco/Net/SSLException.h>
#include <Poco/Net/SSLManager.h>
#include <Poco/Timespan.h>
#include <Poco/URI.h>

#include <sys/socket.h>

#include <algorithm>
#include <istream>
#include <mutex>

namespace agent_run {

namespace {

using SteadyClock = std::chrono::steady_clock;
constexpr std::size_t k_max_line_bytes = 16u << 20;

/// Poco's Timespan(seconds, microseconds); a zero timeout would mean "wait forever" to Poco.
Poco::Timespan timespan_of(std::chrono::milliseconds duration) {
  long long ms = std::max<long long>(duration.count(), 1);
  return Poco::Timespan(static_cast<long>(ms / 1000), static_cast<long>((ms % 1000) * 1000));
}

std::string seconds_text(std::chrono::milliseconds duration) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1fs", static_cast<double>(duration.count()) / 1000.0);
  return buffer;
}

/// Once per process: OpenSSL set up, and an untrusted certificate rejected without any prompt.
void initialize_tls_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    Poco::Net::initializeSSL();
    Poco::Net::Context::Ptr context = new Poco::Net::Context(Poco::Net::Context::TLS_CLIENT_USE, "", "", "",
                                                             Poco::Net::Context::VERIFY_RELAXED, 9, true);
    Poco::SharedPtr<Poco::Net::InvalidCertificateHandler> reject = new Poco::Net::RejectCertificateHandler(false);
    Poco::Net::SSLManager::instance().initializeClient(nullptr, reject, context);
  });
}

/// A session for the URL's scheme. The TLS context is made per session, so it reads the system
/// trust store (and SSL_CERT_FILE / SSL_CERT_DIR) as they are now.
std::unique_ptr<Poco::Net::HTTPClientSession> make_session(const Poco::URI& uri) {
  if (uri.getScheme() == "https") {
    initialize_tls_once();
    Poco::Net::Context::Ptr context = new Poco::Net::Context(Poco::Net::Context::TLS_CLIENT_USE, "", "", "",
                                                             Poco::Net::Context::VERIFY_RELAXED, 9, true);
    return std::make_unique<Poco::Net::HTTPSClientSession>(uri.getHost(), uri.getPort(), context);
  }
  return std::make_unique<Poco::Net::HTTPClientSession>(uri.getHost(), uri.getPort());
}

/// Poco's exception, in words for the person who must fix it.
std::string describe_exception(const Poco::Exception& e) {
  if (dynamic_cast<const Poco::TimeoutException*>(&e)) return "timed out";
  if (dynamic_cast<const Poco::Net::ConnectionRefusedException*>(&e)) return "connection refused";
  if (dynamic_cast<const Poco::Net::HostNotFoundException*>(&e) ||
      dynamic_cast<const Poco::Net::NoAddressFoundException*>(&e)) {
    return "host not found (" + e.message() + ")";
  }
  if (dynamic_cast<const Poco::Net::NoMessageException*>(&e))
    return "the server closed the connection without answering";
  if (dynamic_cast<const Poco::Net::SSLException*>(&e)) return "TLS failed: " + e.displayText();
  return e.displayText();
}

}  // namespace

void HttpInterrupt::interrupt() {
  std::lock_guard lock(m_mutex);
  m_interrupted = true;
  if (m_socket >= 0) ::shutdown(m_socket, SHUT_RDWR);  // a blocked read in the other thread returns
  m_changed.notify_all();
}

bool HttpInterrupt::interrupted() const {
  std::lock_guard lock(m_mutex);
  return m_interrupted;
}

bool HttpInterrupt::wait_sent(std::chrono::steady_clock::time_point deadline) const {
  std::unique_lock lock(m_mutex);
  m_changed.wait_until(lock, deadline, [&] { return m_sending_done || m_interrupted; });
  return m_sent;
}

bool HttpInterrupt::attach(int socket) {
  std::lock_guard lock(m_mutex);
  m_socket = socket;
  if (m_interrupted && socket >= 0) ::shutdown(socket, SHUT_RDWR);
  return !m_interrupted;
}

void HttpInterrupt::detach() {
  std::lock_guard lock(m_mutex);
  m_socket = -1;
}

void HttpInterrupt::finish_sending(bool sent) {
  std::lock_guard lock(m_mutex);
  if (m_sending_done) return;
  m_sending_done = true;
  m_sent = sent;
  m_changed.notify_all();
}

/// What a response being read needs: the session (owning the socket) and the body stream.
struct HttpStream::State {
  ~State() {
    if (interrupt) interrupt->detach();  // before the session closes the socket
  }

  HttpInterrupt* interrupt = nullptr;
  std::unique_ptr<Poco::Net::HTTPClientSession> session;
  Poco::Net::HTTPResponse response;
  std::istream* body = nullptr;
  SteadyClock::time_point deadline;
  std::chrono::milliseconds idle{};
  std::string where;
  HttpFailure failure = HttpFailure::none;
};

std::string url_for_messages(std::string_view url) {
  std::string text(url);
  auto scheme_end = text.find("://");
  if (scheme_end == std::string::npos) return text;
  auto authority_end = text.find_first_of("/?#", scheme_end + 3);
  auto at = text.rfind('@', authority_end == std::string::npos ? text.size() : authority_end);
  if (at != std::string::npos && at > scheme_end) text.erase(scheme_end + 3, at - scheme_end - 2);
  return text;
}

Expected<HttpStream> HttpStream::open(const HttpRequest& request, const HttpLimits& limits, HttpInterrupt* interrupt) {
  auto state = std::make_unique<State>();
  state->interrupt = interrupt;
  state->where = url_for_messages(request.url);
  // Whatever happens below, a thread waiting for the request to go out learns how it went.
  struct SendingDone {
    HttpInterrupt* interrupt;
    ~SendingDone() {
      if (interrupt) interrupt->finish_sending(false);
    }
  } sending_done{interrupt};
  const std::string interrupted = request.method + " " + state->where + ": interrupted";
  if (interrupt && interrupt->interrupted()) return make_error(interrupted);
  state->idle = limits.idle;
  state->deadline = SteadyClock::now() + limits.total;
  try {
    Poco::URI uri(request.url);
    if (uri.getScheme() != "http" && uri.getScheme() != "https") {
      return make_error("'" + state->where + "' is not an http:// or https:// URL");
    }
    state->session = make_session(uri);
    const auto first_wait = std::min(limits.idle, limits.total);
    state->session->setTimeout(timespan_of(std::min(limits.connect, limits.total)), timespan_of(first_wait),
                               timespan_of(first_wait));
    Poco::Net::HTTPRequest head(request.method, uri.getPathEtc().empty() ? "/" : uri.getPathEtc(),
                                Poco::Net::HTTPMessage::HTTP_1_1);
    for (const HttpHeader& header : request.headers) head.set(header.name, header.value);
    head.setContentLength(static_cast<std::streamsize>(request.body.size()));
    std::ostream& out = state->session->sendRequest(head);
    out << request.body;
    out.flush();
    if (interrupt) {
      if (!interrupt->attach(static_cast<int>(state->session->socket().impl()->sockfd())))
        return make_error(interrupted);
      interrupt->finish_sending(true);
    }
    state->body = &state->session->receiveResponse(state->response);
  } catch (const Poco::Exception& e) {
    if (interrupt && interrupt->interrupted()) return make_error(interrupted);
    return make_error(request.method + " " + state->where + ": " + describe_exception(e));
  } catch (const std::exception& e) {
    if (interrupt && interrupt->interrupted()) return make_error(interrupted);
    return make_error(request.method + " " + state->where + ": " + e.what());
  }
  return HttpStream(std::move(state));
}

HttpStream::HttpStream(std::unique_ptr<State> state) : m_state(std::move(state)) {}
HttpStream::HttpStream(HttpStream&& other) noexcept = default;
HttpStream& HttpStream::operator=(HttpStream&& other) noexcept = default;
HttpStream::~HttpStream() = default;

int HttpStream::status() const { return poco_status(m_state->response); }

std::string HttpStream::header(std::string_view name) const { return m_state->response.get(std::string(name), ""); }

HttpFailure HttpStream::last_failure() const { return m_state->failure; }

bool HttpStream::was_interrupted() {
  if (!m_state->interrupt || !m_state->interrupt->interrupted()) return false;
  m_state->failure = HttpFailure::broken;
  return true;
}

Expected<int> HttpStream::next_byte() {
  std::streambuf* buffer = m_state->body->rdbuf();
  bool wait_ends_at_deadline = false;  // the socket's timeout is the time left, not the idle limit
  auto interrupted = [&] { return make_error("reading " + m_state->where + ": interrupted"); };
  try {
    if (buffer->in_avail() <= 0) {  // the next byte needs a read from the socket
      if (was_interrupted()) return interrupted();
      auto remaining = std::chrono::duration_cast<std::chrono::milliseconds>(m_state->deadline - SteadyClock::now());
      if (remaining.count() <= 0) {
        m_state->failure = HttpFailure::deadline;
        return make_error("reading " + m_state->where + ": stopped at the time limit");
      }
      wait_ends_at_deadline = remaining <= m_state->idle;
      m_state->session->socket().setReceiveTimeout(timespan_of(std::min(m_state->idle, remaining)));
    }
    int c = buffer->sbumpc();
    if (c == std::char_traits<char>::eof()) return was_interrupted() ? Expected<int>(interrupted()) : -1;
    return static_cast<unsigned char>(c);
  } catch (const Poco::TimeoutException&) {
    // A receive timeout can fire a little before the deadline it was set from (milliseconds are
    // rounded down), so the wait's own bound decides which limit ended it.
    if (wait_ends_at_deadline || SteadyClock::now() >= m_state->deadline) {
      m_state->failure = HttpFailure::deadline;
      return make_error("reading " + m_state->where + ": stopped at the time limit");
    }
    m_state->failure = HttpFailure::timeout;
    return make_error("reading " + m_state->where + ": the server sent nothing for " + seconds_text(m_state->idle) +
                      " (idle timeout)");
  } catch (const Poco::Exception& e) {
    m_state->failure = HttpFailure::broken;
    if (was_interrupted()) return interrupted();
    return make_error("reading " + m_state->where + ": " + describe_exception(e));
  } catch (const std::exception& e) {
    m_state->failure = HttpFailure::broken;
    return make_error("reading " + m_state->where + ": " + e.what());
  }
}

Expected<std::optional<std::string>> HttpStream::read_line() {
  m_state->failure = HttpFailure::none;
  std::string line;
  for (;;) {
    auto c = next_byte();
    if (!c) return c.error();
    if (*c < 0) return line.empty() ? std::nullopt : std::optional<std::string>(std::move(line));
    if (*c == '\n') return std::optional<std::string>(std::move(line));
    line.push_back(static_cast<char>(*c));
    if (line.size() > k_max_line_bytes) {
      m_state->failure = HttpFailure::too_long;
      return make_error("reading " + m_state->where + ": a line longer than 16 MiB");
    }
  }
}

Expected<std::string> HttpStream::read_body(std::size_t max_bytes) {
  m_state->failure = HttpFailure::none;
  std::string body;
  while (body.size() < max_bytes) {
    auto c = next_byte();
    if (!c) return c.error();
    if (*c < 0) break;
    body.push_back(static_cast<char>(*c));
  }
  return body;
}

}  // namespace agent_run
