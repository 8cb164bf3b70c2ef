#pragma once

#include "net/address_resolver.h"
#include "net/web_client.h"

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace agent_run::test {

/// What the test server answers on one path.
struct WebRoute {
  int status = 200;
  std::string content_type = "text/html; charset=utf-8";
  std::string body;
  std::string location;                  // for redirects
  std::chrono::milliseconds trickle{0};  // pause between 1-byte chunks of the body, when set
};

/// A key and certificate (PEM files) for a TLS test server.
struct ServerCertificate {
  std::string key_file;
  std::string certificate_file;
};

/// A real HTTP server (Poco) on 127.0.0.1 that answers from a table of routes and records the Host
/// header of every request it got; with a certificate it speaks HTTPS.
class WebTestServer {
 public:
  explicit WebTestServer(std::map<std::string, WebRoute> routes, std::optional<ServerCertificate> tls = std::nullopt);
  ~WebTestServer();
  WebTestServer(const WebTestServer&) = delete;
  WebTestServer& operator=(const WebTestServer&) = delete;

  int port() const;
  /// `host path` of every request, in order.
  std::vector<std::string> requests() const;

 private:
  class Impl;
  std::unique_ptr<Impl> m_impl;
};

/// A resolver answering from a table: each name gets a list of answers, one per call (the last one
/// repeats), so a test can make a name change its answer (DNS rebinding). Counts calls per name.
class TableResolver final : public HostResolver {
 public:
  explicit TableResolver(std::map<std::string, std::vector<std::vector<std::string>>> answers);
  Expected<std::vector<IpAddress>> resolve(const std::string& host) const override;
  int calls(const std::string& host) const;

 private:
  std::map<std::string, std::vector<std::vector<std::string>>> m_answers;
  mutable std::map<std::string, int> m_calls;
  mutable std::mutex m_mutex;
};

/// A route_for_test that sends every connection to 127.0.0.1:`port`.
std::function<WebEndpoint(const WebEndpoint&)> route_everything_to(int port);

}  // namespace agent_run::test
