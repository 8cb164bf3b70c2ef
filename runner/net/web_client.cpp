#include "net/web_client.h"

#include "net/poco_status.h"
#include "net/web_target.h"

#include <Poco/Exception.h>
#include <Poco/Net/Context.h>
#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/Net/IPAddress.h>
#include <Poco/Net/RejectCertificateHandler.h>
#include <Poco/Net/SSLManager.h>
#include <Poco/Net/SecureStreamSocket.h>
#include <Poco/Net/SocketAddress.h>
#include <Poco/Net/StreamSocket.h>

#include <algorithm>
#include <memory>

namespace agent_run {

namespace {

using SteadyClock = std::chrono::steady_clock;
constexpr const char* k_user_agent = "agent-run-web-fetch/" AGENT_RUN_VERSION;

/// One response, before redirects are followed.
struct Response {
  int status = 0;
  std::string reason;
  std::string content_type;
  std::string location;
  std::string body;
  bool truncated = false;
};

Poco::Timespan timespan(std::chrono::milliseconds duration) {
  return Poco::Timespan(static_cast<Poco::Timespan::TimeDiff>(std::max<long long>(1, duration.count())) * 1000);
}

std::chrono::milliseconds remaining(SteadyClock::time_point deadline) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(deadline - SteadyClock::now());
}

/// The TLS client context: the system's certificate authorities, certificates verified, the host
/// name checked; made once.
Poco::Net::Context::Ptr tls_context() {
  static Poco::Net::Context::Ptr context = [] {
    Poco::Net::initializeSSL();
    Poco::Net::Context::Ptr made = new Poco::Net::Context(Poco::Net::Context::TLS_CLIENT_USE, "", "", "",
                                                          Poco::Net::Context::VERIFY_RELAXED, 9, true);
    Poco::Net::SSLManager::instance().initializeClient(nullptr, new Poco::Net::RejectCertificateHandler(false), made);
    return made;
  }();
  return context;
}

/// A TCP connection to the first of the target's checked addresses that answers.
Expected<Poco::Net::StreamSocket> connect_checked(const WebTarget& target, const WebFetchOptions& options,
                                                  SteadyClock::time_point deadline) {
  std::string failures;
  for (const IpAddress& address : target.addresses) {
    WebEndpoint endpoint{address, target.port};
    if (options.route_for_test) endpoint = options.route_for_test(endpoint);
    try {
      bool v4 = endpoint.address.family == IpAddress::Family::v4;
      Poco::Net::IPAddress ip(endpoint.address.bytes.data(), v4 ? 4 : 16, endpoint.address.scope_id);
      Poco::Net::StreamSocket socket;
      auto patience = std::min(options.limits.connect_timeout, remaining(deadline));
      socket.connect(Poco::Net::SocketAddress(ip, static_cast<Poco::UInt16>(endpoint.port)), timespan(patience));
      return socket;
    } catch (const Poco::Exception& e) {
      failures += (failures.empty() ? "" : "; ") + address.to_string() + ": " + e.displayText();
    }
  }
  return make_error("cannot connect to " + target.host + ": " + failures);
}

/// Reads the body one receive at a time, so the deadline is checked between reads even when the
/// server trickles, and stops at the cap.
Expected<void> read_body(std::istream& in, Poco::Net::StreamSocket& socket, const WebFetchLimits& limits,
                         SteadyClock::time_point deadline, Response& response) {
  char buffer[16384];
  for (;;) {
    if (remaining(deadline).count() <= 0)
      return make_error("timed out after " + std::to_string(limits.timeout.count() / 1000) + "s");
    socket.setReceiveTimeout(timespan(remaining(deadline)));
    if (in.peek() == std::char_traits<char>::eof()) return {};
    std::streamsize got = in.readsome(buffer, sizeof buffer);
    std::size_t room = limits.max_body_bytes - response.body.size();
    response.body.append(buffer, std::min(room, static_cast<std::size_t>(got)));
    if (static_cast<std::size_t>(got) > room) {
      response.truncated = true;
      return {};
    }
  }
}

/// One GET over an open connection.
Expected<Response> exchange(Poco::Net::HTTPClientSession& session, Poco::Net::StreamSocket& socket,
                            const WebTarget& target, const WebFetchLimits& limits, SteadyClock::time_point deadline) {
  Poco::Net::HTTPRequest request(Poco::Net::HTTPRequest::HTTP_GET, target.request_target,
                                 Poco::Net::HTTPMessage::HTTP_1_1);
  request.setHost(target.host, static_cast<Poco::UInt16>(target.port));
  request.set("User-Agent", k_user_agent);
  request.set("Accept", "text/html, text/plain, application/json, */*;q=0.5");
  request.set("Accept-Encoding", "identity");
  request.setKeepAlive(false);
  socket.setSendTimeout(timespan(remaining(deadline)));
  socket.setReceiveTimeout(timespan(remaining(deadline)));
  session.sendRequest(request);
  Poco::Net::HTTPResponse answer;
  std::istream& in = session.receiveResponse(answer);
  in.exceptions(std::ios::badbit);  // a timeout must not look like the end of the body
  Response response;
  response.status = poco_status(answer);
  response.reason = answer.getReason();
  response.content_type = answer.getContentType();
  response.location = answer.get("Location", "");
  if (auto read = read_body(in, socket, limits, deadline, response); !read) return read.error();
  return response;
}

/// Connects to a checked address of `target` and makes one GET, over TLS for https.
Expected<Response> fetch_once(const WebTarget& target, const WebFetchOptions& options,
                              SteadyClock::time_point deadline) {
  auto socket = connect_checked(target, options, deadline);
  if (!socket) return socket.error();
  try {
    if (target.scheme == "https") {
      // TLS over the checked connection, the certificate verified for the URL's host name. The plain
      // session only moves bytes through the socket it is given (HTTPSClientSession cannot take a
      // connected socket: its constructor sets the port and throws).
      Poco::Net::SecureStreamSocket secure = Poco::Net::SecureStreamSocket::attach(*socket, target.host, tls_context());
      Poco::Net::HTTPClientSession session(secure);
      return exchange(session, secure, target, options.limits, deadline);
    }
    Poco::Net::HTTPClientSession session(*socket);
    return exchange(session, *socket, target, options.limits, deadline);
  } catch (const Poco::TimeoutException&) {
    return make_error("timed out after " + std::to_string(options.limits.timeout.count() / 1000) + "s");
  } catch (const Poco::Exception& e) {
    return make_error("fetching " + target.url + " failed: " + e.displayText());
  } catch (const std::exception& e) {
    return make_error("fetching " + target.url + " failed: " + e.what());
  }
}

bool is_redirect(int status) {
  return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

}  // namespace

Expected<WebPage> fetch_web_page(const std::string& url, const WebFetchOptions& options) {
  SystemResolver system;
  const HostResolver& resolver = options.resolver ? *options.resolver : system;
  const auto deadline = SteadyClock::now() + options.limits.timeout;
  WebPage page;
  std::string current = url;
  for (int hop = 0;; ++hop) {
    const std::string via = hop == 0 ? "" : " (redirected from " + page.redirects.back() + ")";
    if (options.approve_hop) {
      if (auto approved = options.approve_hop(current); !approved) {
        return make_error("refused " + current + via + ": " + approved.error().message);
      }
    }
    auto target = check_web_target(current, resolver);
    if (!target) return make_error("refused " + current + via + ": " + target.error().message);
    auto response = fetch_once(*target, options, deadline);
    if (!response) return response.error();
    if (is_redirect(response->status) && !response->location.empty()) {
      if (hop >= options.limits.max_redirects) {
        return make_error("more than " + std::to_string(options.limits.max_redirects) + " redirects, the last to " +
                          response->location);
      }
      auto next = resolve_location(current, response->location);
      if (!next) return next.error();
      page.redirects.push_back(current);
      current = *next;
      continue;
    }
    page.url = current;
    page.status = response->status;
    page.reason = response->reason;
    page.content_type = response->content_type;
    page.body = std::move(response->body);
    page.truncated = response->truncated;
    return page;
  }
}

}  // namespace agent_run
