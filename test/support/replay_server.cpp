#include "support/replay_server.h"

#include "support/fixtures.h"

#include <Poco/Net/Context.h>
#include <Poco/Net/HTTPRequestHandler.h>
#include <Poco/Net/HTTPRequestHandlerFactory.h>
#include <Poco/Net/HTTPServer.h>
#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerRequestImpl.h>
#include <Poco/Net/HTTPServerResponse.h>
#include <Poco/Net/SSLManager.h>
#include <Poco/Net/SecureServerSocket.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/StreamCopier.h>
#include <boost/test/unit_test.hpp>

#include <strings.h>
#include <condition_variable>
#include <fstream>
#include <mutex>
#include <sstream>

namespace agent_run::test {

/// What the server's handler threads share with the test.
struct ReplayServer::State {
  std::vector<ScriptedResponse> responses;
  std::vector<ReceivedRequest> received;
  std::size_t next = 0;
  int active = 0;
  bool tls = false;
  bool stopping = false;
  mutable std::mutex mutex;
  std::condition_variable changed;
  std::unique_ptr<Poco::Net::ServerSocket> socket;
  std::unique_ptr<Poco::Net::HTTPServer> server;
};

namespace {

using State = ReplayServer::State;

ReceivedRequest record_request(Poco::Net::HTTPServerRequest& request) {
  ReceivedRequest received;
  received.method = request.getMethod();
  received.uri = request.getURI();
  for (const auto& [name, value] : request) received.headers.emplace_back(name, value);
  Poco::StreamCopier::copyToString(request.stream(), received.body);
  return received;
}

/// Waits `delay`, or less when the server is being destroyed; false when it is.
bool pause(State& state, std::chrono::milliseconds delay) {
  std::unique_lock lock(state.mutex);
  return !state.changed.wait_for(lock, delay, [&] { return state.stopping; });
}

void serve(State& state, const ScriptedResponse& scripted, Poco::Net::HTTPServerRequest& request,
           Poco::Net::HTTPServerResponse& response) {
  response.setStatus(static_cast<Poco::Net::HTTPResponse::HTTPStatus>(scripted.status));
  for (const auto& [name, value] : scripted.headers) response.set(name, value);
  response.setChunkedTransferEncoding(true);
  std::ostream& out = response.send();
  out.flush();
  for (std::size_t index = 0; index < scripted.chunks.size(); ++index) {
    const std::string& chunk = scripted.chunks[index];
    if (scripted.chunk_delay.count() > 0 && !pause(state, scripted.chunk_delay)) return;
    if (scripted.gate && !scripted.gate->wait_for(index)) return;
    out << chunk;
    out.flush();
    if (!out) return;  // the client went away
  }
  if (scripted.end == ResponseEnd::close_connection) {
    static_cast<Poco::Net::HTTPServerRequestImpl&>(request).socket().shutdown();
  } else if (scripted.end == ResponseEnd::go_silent) {
    std::unique_lock lock(state.mutex);
    state.changed.wait_for(lock, std::chrono::seconds(60), [&] { return state.stopping; });
  }
}

/// Answers one request with the next scripted response.
class ReplayHandler final : public Poco::Net::HTTPRequestHandler {
 public:
  explicit ReplayHandler(State& state) : m_state(state) {}

  void handleRequest(Poco::Net::HTTPServerRequest& request, Poco::Net::HTTPServerResponse& response) override {
    ReceivedRequest received = record_request(request);
    ScriptedResponse scripted;
    {
      std::lock_guard lock(m_state.mutex);
      ++m_state.active;
      m_state.received.push_back(std::move(received));
      if (m_state.next < m_state.responses.size()) {
        scripted = m_state.responses[m_state.next++];
      } else {
        scripted.status = 500;
        scripted.chunks = {R"({"error":"the replay server has no more scripted responses"})"};
      }
    }
    try {
      serve(m_state, scripted, request, response);
    } catch (...) {
      // the client hung up: nothing more to do
    }
    std::lock_guard lock(m_state.mutex);
    --m_state.active;
    m_state.changed.notify_all();
  }

 private:
  State& m_state;
};

class ReplayHandlerFactory final : public Poco::Net::HTTPRequestHandlerFactory {
 public:
  explicit ReplayHandlerFactory(State& state) : m_state(state) {}
  Poco::Net::HTTPRequestHandler* createRequestHandler(const Poco::Net::HTTPServerRequest&) override {
    return new ReplayHandler(m_state);
  }

 private:
  State& m_state;
};

std::vector<std::string> split_events(const std::string& stream) {
  std::vector<std::string> events;
  std::size_t start = 0;
  while (start < stream.size()) {
    std::size_t end = stream.find("\n\n", start);
    end = end == std::string::npos ? stream.size() : end + 2;
    events.push_back(stream.substr(start, end - start));
    start = end;
  }
  return events;
}

std::vector<std::pair<std::string, std::string>> stream_headers(const std::string& request_id) {
  return {{"Content-Type", "text/event-stream; charset=utf-8"},
          {"Cache-Control", "no-cache"},
          {"request-id", request_id},
          {"x-request-id", request_id}};
}

}  // namespace

void ChunkGate::release(std::size_t count) {
  {
    std::lock_guard lock(m_mutex);
    m_released += count;
  }
  m_changed.notify_all();
}

bool ChunkGate::wait_for(std::size_t index) {
  std::unique_lock lock(m_mutex);
  return m_changed.wait_for(lock, std::chrono::minutes(1), [&] { return index < m_released; });
}

std::string ReceivedRequest::header(const std::string& name) const {
  for (const auto& [key, value] : headers) {
    if (strcasecmp(key.c_str(), name.c_str()) == 0) return value;
  }
  return "";
}

ReplayServer::ReplayServer(std::vector<ScriptedResponse> responses, std::optional<ServerTls> tls)
    : m_state(std::make_unique<State>()) {
  m_state->responses = std::move(responses);
  const Poco::Net::SocketAddress loopback("127.0.0.1", 0);
  if (tls) {
    Poco::Net::initializeSSL();
    Poco::Net::Context::Ptr context = new Poco::Net::Context(
        Poco::Net::Context::TLS_SERVER_USE, tls->key_file, tls->certificate_file, "", Poco::Net::Context::VERIFY_NONE);
    m_state->socket = std::make_unique<Poco::Net::SecureServerSocket>(loopback, 64, context);
    m_state->tls = true;
  } else {
    m_state->socket = std::make_unique<Poco::Net::ServerSocket>(loopback);
  }
  Poco::Net::HTTPServerParams::Ptr params = new Poco::Net::HTTPServerParams;
  params->setKeepAlive(false);
  params->setMaxThreads(8);
  m_state->server =
      std::make_unique<Poco::Net::HTTPServer>(new ReplayHandlerFactory(*m_state), *m_state->socket, params);
  m_state->server->start();
}

ReplayServer::~ReplayServer() {
  {
    std::lock_guard lock(m_state->mutex);
    m_state->stopping = true;
  }
  m_state->changed.notify_all();
  m_state->server->stopAll(true);
  std::unique_lock lock(m_state->mutex);
  m_state->changed.wait_for(lock, std::chrono::seconds(10), [&] { return m_state->active == 0; });
}

std::string ReplayServer::url() const {
  return std::string(m_state->tls ? "https" : "http") +
         "://127.0.0.1:" + std::to_string(m_state->socket->address().port());
}

std::vector<ReceivedRequest> ReplayServer::requests() const {
  std::lock_guard lock(m_state->mutex);
  return m_state->received;
}

ScriptedResponse sse_response(const std::string& stream, const std::string& request_id) {
  ScriptedResponse response;
  response.headers = stream_headers(request_id);
  response.chunks = split_events(stream);
  return response;
}

ScriptedResponse sse_response_in_pieces(const std::string& stream, std::size_t bytes) {
  ScriptedResponse response;
  response.headers = stream_headers("req_pieces");
  for (std::size_t start = 0; start < stream.size(); start += bytes)
    response.chunks.push_back(stream.substr(start, bytes));
  return response;
}

ScriptedResponse json_response(int status, const std::string& body,
                               std::vector<std::pair<std::string, std::string>> headers) {
  ScriptedResponse response;
  response.status = status;
  response.headers = std::move(headers);
  response.headers.emplace_back("Content-Type", "application/json");
  response.chunks = {body};
  return response;
}

ServerTls make_self_signed_certificate(const std::string& folder) {
  ServerTls tls{folder + "/cert.pem", folder + "/key.pem"};
  CommandResult made = run_shell(
      "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj /CN=localhost "
      "-addext subjectAltName=IP:127.0.0.1,DNS:localhost -keyout " +
          shell_quote(tls.key_file) + " -out " + shell_quote(tls.certificate_file),
      folder);
  BOOST_REQUIRE_MESSAGE(made.exit_code == 0, "openssl failed: " + made.output);
  return tls;
}

std::string model_fixture(const std::string& name) {
  std::ifstream in(source_root() / "test" / "fixtures" / "model" / name, std::ios::binary);
  BOOST_REQUIRE_MESSAGE(in.good(), "missing fixture test/fixtures/model/" + name);
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

}  // namespace agent_run::test
