#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace agent_run::test {

/// How a scripted response ends: normally, by dropping the connection, or by going silent.
enum class ResponseEnd { complete, close_connection, go_silent };

/// Lets a test release a response's chunks one at a time: the server sends the first chunk at
/// once and each later one only when the test has released it, so a test can tell a line that
/// arrived as it was sent from one that waited for the end of the body, however loaded the machine.
class ChunkGate {
 public:
  /// Lets the server send `count` more chunks.
  void release(std::size_t count = 1);
  /// Server side: waits until chunk `index` (from 0) may be sent; false after a minute without it.
  bool wait_for(std::size_t index);

 private:
  std::mutex m_mutex;
  std::condition_variable m_changed;
  std::size_t m_released = 1;
};

/// One scripted HTTP response: status, headers, and a body sent chunk by chunk (each chunk
/// flushed on its own, as a streaming API does), optionally cut short.
struct ScriptedResponse {
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers;
  std::vector<std::string> chunks;
  std::chrono::milliseconds chunk_delay{0};  // pause before each chunk
  std::shared_ptr<ChunkGate> gate;           // when set, each chunk after the first waits for the test
  ResponseEnd end = ResponseEnd::complete;
};

/// One request the server received, as it arrived.
struct ReceivedRequest {
  std::string method;
  std::string uri;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;

  /// The header `name` (case-insensitive), or "" when absent.
  std::string header(const std::string& name) const;
};

/// A certificate and its private key (PEM files) for a server that speaks TLS.
struct ServerTls {
  std::string certificate_file;
  std::string key_file;
};

/// A real HTTP/1.1 server on 127.0.0.1 (Poco HTTPServer on port 0, plain or TLS) that answers
/// each request with the next scripted response, in order, and records what it was sent. Past
/// the script it answers 500. A silent response holds its connection until the server is destroyed.
class ReplayServer {
 public:
  explicit ReplayServer(std::vector<ScriptedResponse> responses, std::optional<ServerTls> tls = std::nullopt);
  ~ReplayServer();
  ReplayServer(const ReplayServer&) = delete;
  ReplayServer& operator=(const ReplayServer&) = delete;

  /// `http://127.0.0.1:PORT` (`https://` with TLS).
  std::string url() const;
  std::vector<ReceivedRequest> requests() const;

  struct State;

 private:
  std::unique_ptr<State> m_state;
};

/// A recorded text/event-stream body as a 200 response, one chunk per event (split after each
/// blank line), with the headers an API sends.
ScriptedResponse sse_response(const std::string& stream, const std::string& request_id = "req_test");

/// The same body cut into pieces of `bytes` bytes, so lines and events straddle chunks.
ScriptedResponse sse_response_in_pieces(const std::string& stream, std::size_t bytes);

/// A JSON error (or other) response with `status`, e.g. a 429 with a retry-after header.
ScriptedResponse json_response(int status, const std::string& body,
                               std::vector<std::pair<std::string, std::string>> headers = {});

/// Makes a self-signed certificate for 127.0.0.1 and localhost in `folder` with the openssl
/// command (cert.pem, key.pem).
ServerTls make_self_signed_certificate(const std::string& folder);

/// The content of test/fixtures/model/`name`.
std::string model_fixture(const std::string& name);

}  // namespace agent_run::test
