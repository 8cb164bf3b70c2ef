#include "support/web_test_server.h"

#include <Poco/Net/Context.h>
#include <Poco/Net/HTTPRequestHandler.h>
#include <Poco/Net/HTTPRequestHandlerFactory.h>
#include <Poco/Net/HTTPServer.h>
#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>
#include <Poco/Net/SecureServerSocket.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/Net/SocketAddress.h>
#include <Poco/ThreadPool.h>

#include <thread>

namespace agent_run::test {

namespace {

class RouteHandler final : public Poco::Net::HTTPRequestHandler {
 public:
  explicit RouteHandler(const WebRoute* route) : m_route(route) {}
  void handleRequest(Poco::Net::HTTPServerRequest&, Poco::Net::HTTPServerResponse& response) override {
    if (!m_route) {
      response.setStatusAndReason(Poco::Net::HTTPResponse::HTTP_NOT_FOUND);
      response.send() << "not found";
      return;
    }
    response.setStatusAndReason(static_cast<Poco::Net::HTTPResponse::HTTPStatus>(m_route->status));
    response.setContentType(m_route->content_type);
    if (!m_route->location.empty()) response.set("Location", m_route->location);
    if (m_route->trickle.count() == 0) {
      response.setContentLength(static_cast<std::streamsize>(m_route->body.size()));
      response.send() << m_route->body;
      return;
    }
    response.setChunkedTransferEncoding(true);
    std::ostream& out = response.send();
    for (char c : m_route->body) {
      out << c;
      out.flush();
      if (!out) return;
      std::this_thread::sleep_for(m_route->trickle);
    }
  }

 private:
  const WebRoute* m_route;
};

}  // namespace

/// The routes and what was asked of them, shared by the server's threads.
struct RouteTable {
  std::map<std::string, WebRoute> routes;
  mutable std::mutex mutex;
  std::vector<std::string> requests;
};

class RouteFactory final : public Poco::Net::HTTPRequestHandlerFactory {
 public:
  explicit RouteFactory(RouteTable& table) : m_table(table) {}
  Poco::Net::HTTPRequestHandler* createRequestHandler(const Poco::Net::HTTPServerRequest& request) override {
    std::string path = request.getURI();
    {
      std::lock_guard lock(m_table.mutex);
      m_table.requests.push_back(request.getHost() + " " + path);
    }
    auto route = m_table.routes.find(path);
    return new RouteHandler(route == m_table.routes.end() ? nullptr : &route->second);
  }

 private:
  RouteTable& m_table;
};

/// A listening socket on 127.0.0.1, plain or TLS.
Poco::Net::ServerSocket listening_socket(const std::optional<ServerCertificate>& tls) {
  Poco::Net::SocketAddress address("127.0.0.1", 0);
  if (!tls) return Poco::Net::ServerSocket(address);
  Poco::Net::Context::Ptr context = new Poco::Net::Context(Poco::Net::Context::TLS_SERVER_USE, tls->key_file,
                                                           tls->certificate_file, "", Poco::Net::Context::VERIFY_NONE);
  return Poco::Net::SecureServerSocket(address, 64, context);
}

class WebTestServer::Impl {
 public:
  Impl(std::map<std::string, WebRoute> routes, const std::optional<ServerCertificate>& tls)
      : m_socket(listening_socket(tls)),
        m_server(new RouteFactory(m_table), m_threads, m_socket, new Poco::Net::HTTPServerParams) {
    m_table.routes = std::move(routes);
    m_server.start();
  }
  // stopAll() aborts the connections but does not wait for their handlers: a trickling one still
  // held a route of m_table after it was gone (ASan). The server's own pool is joined here.
  ~Impl() {
    m_server.stopAll(true);
    m_threads.joinAll();
  }

  RouteTable m_table;
  Poco::ThreadPool m_threads;
  Poco::Net::ServerSocket m_socket;
  Poco::Net::HTTPServer m_server;
};

WebTestServer::WebTestServer(std::map<std::string, WebRoute> routes, std::optional<ServerCertificate> tls)
    : m_impl(new Impl(std::move(routes), tls)) {}

WebTestServer::~WebTestServer() = default;

int WebTestServer::port() const { return m_impl->m_socket.address().port(); }

std::vector<std::string> WebTestServer::requests() const {
  std::lock_guard lock(m_impl->m_table.mutex);
  return m_impl->m_table.requests;
}

TableResolver::TableResolver(std::map<std::string, std::vector<std::vector<std::string>>> answers)
    : m_answers(std::move(answers)) {}

Expected<std::vector<IpAddress>> TableResolver::resolve(const std::string& host) const {
  std::lock_guard lock(m_mutex);
  int call = m_calls[host]++;
  auto found = m_answers.find(host);
  if (found == m_answers.end() || found->second.empty())
    return make_error("cannot resolve '" + host + "': unknown name");
  const auto& answer = found->second[std::min<std::size_t>(static_cast<std::size_t>(call), found->second.size() - 1)];
  std::vector<IpAddress> addresses;
  for (const std::string& text : answer) addresses.push_back(*IpAddress::parse(text));
  return addresses;
}

int TableResolver::calls(const std::string& host) const {
  std::lock_guard lock(m_mutex);
  auto found = m_calls.find(host);
  return found == m_calls.end() ? 0 : found->second;
}

std::function<WebEndpoint(const WebEndpoint&)> route_everything_to(int port) {
  return [port](const WebEndpoint&) { return WebEndpoint{*IpAddress::parse("127.0.0.1"), port}; };
}

}  // namespace agent_run::test
