#include "net/http_client.h"
#include "support/fixtures.h"
#include "support/replay_server.h"

#include <Poco/Net/ServerSocket.h>
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <thread>

using namespace agent_run;
using namespace agent_run::test;
using namespace std::chrono_literals;

namespace {

using SteadyClock = std::chrono::steady_clock;

long long ms_since(SteadyClock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(SteadyClock::now() - start).count();
}

HttpRequest post_to(const std::string& url) {
  HttpRequest request;
  request.url = url + "/v1/messages";
  request.headers = {{"content-type", "application/json"}, {"accept", "text/event-stream"}};
  request.body = R"({"stream":true})";
  return request;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(http_client)

// The server sends each chunk only after the test has read the line before it: a client that
// waited for the end of the body would never see the first line (its read would time out).
BOOST_AUTO_TEST_CASE(lines_arrive_as_the_server_flushes_them_not_at_the_end) {
  ScriptedResponse response = sse_response("data: one\n\ndata: two\n\ndata: three\n\n");
  response.gate = std::make_shared<ChunkGate>();
  ReplayServer server({response});
  auto stream = HttpStream::open(post_to(server.url()), HttpLimits{});
  BOOST_REQUIRE_MESSAGE(stream.has_value(), (stream ? std::string() : stream.error().message));
  BOOST_TEST(stream->status() == 200);
  BOOST_TEST(stream->header("Content-Type") == "text/event-stream; charset=utf-8");
  std::vector<std::string> lines;
  for (const char* expected : {"data: one", "", "data: two", "", "data: three", ""}) {
    auto line = stream->read_line();
    BOOST_REQUIRE_MESSAGE(line.has_value() && line->has_value(), "no line where " << expected << " was due");
    lines.push_back(**line);
    if (lines.back().empty() && lines.size() < 6) response.gate->release();  // the next event may come now
  }
  BOOST_TEST(lines == (std::vector<std::string>{"data: one", "", "data: two", "", "data: three", ""}),
             boost::test_tools::per_element());
  auto end = stream->read_line();
  BOOST_TEST((end.has_value() && !end->has_value()));  // the end of the body
  auto requests = server.requests();
  BOOST_REQUIRE(requests.size() == 1u);
  BOOST_TEST(requests[0].uri == "/v1/messages");
  BOOST_TEST(requests[0].body == R"({"stream":true})");
  BOOST_TEST(requests[0].header("Accept") == "text/event-stream");
}

BOOST_AUTO_TEST_CASE(an_error_status_comes_with_its_headers_and_body) {
  ReplayServer server({json_response(429, R"({"type":"error"})", {{"retry-after", "7"}})});
  auto stream = HttpStream::open(post_to(server.url()), HttpLimits{});
  BOOST_REQUIRE(stream.has_value());
  BOOST_TEST(stream->status() == 429);
  BOOST_TEST(stream->header("Retry-After") == "7");
  auto body = stream->read_body(1 << 16);
  BOOST_REQUIRE(body.has_value());
  BOOST_TEST(*body == R"({"type":"error"})");
}

BOOST_AUTO_TEST_CASE(a_silent_server_ends_the_read_at_the_idle_timeout) {
  ScriptedResponse response = sse_response("data: one\n\n");
  response.end = ResponseEnd::go_silent;
  ReplayServer server({response});
  HttpLimits limits;
  limits.idle = 300ms;
  auto stream = HttpStream::open(post_to(server.url()), limits);
  BOOST_REQUIRE(stream.has_value());
  BOOST_TEST(**stream->read_line() == "data: one");
  BOOST_TEST(**stream->read_line() == "");
  const auto start = SteadyClock::now();
  auto silent = stream->read_line();
  const long long waited = ms_since(start);
  BOOST_REQUIRE(!silent.has_value());
  BOOST_TEST(silent.error().message.find("sent nothing for 0.3s (idle timeout)") != std::string::npos);
  BOOST_TEST((stream->last_failure() == HttpFailure::timeout));
  BOOST_TEST(waited >= 250);  // not before the idle timeout
}

BOOST_AUTO_TEST_CASE(the_total_limit_stops_a_server_that_trickles_keep_alives_forever) {
  ScriptedResponse response;
  response.headers = {{"Content-Type", "text/event-stream"}};
  response.chunks.assign(200, ": ping\n\n");
  response.chunk_delay = 50ms;
  ReplayServer server({response});
  HttpLimits limits;
  limits.idle = 2s;
  limits.total = 600ms;
  const auto start = SteadyClock::now();
  auto stream = HttpStream::open(post_to(server.url()), limits);
  BOOST_REQUIRE(stream.has_value());
  Expected<std::optional<std::string>> line = std::optional<std::string>();
  int lines = 0;
  while ((line = stream->read_line()) && *line) ++lines;
  const long long waited = ms_since(start);
  BOOST_REQUIRE(!line.has_value());
  BOOST_TEST_INFO("the read ended with: " << line.error().message);
  BOOST_TEST((stream->last_failure() == HttpFailure::deadline));
  BOOST_TEST(line.error().message.find("time limit") != std::string::npos);
  BOOST_TEST(lines > 0);      // the server was talking, and the total limit ended the read anyway
  BOOST_TEST(waited >= 550);  // not before the total limit
}

BOOST_AUTO_TEST_CASE(a_connection_closed_mid_stream_ends_the_body_early) {
  ScriptedResponse response = sse_response(
      "event: message_start\ndata: {\"type\":\"message_start\"}\n\nevent: content_block_delta\ndata: {\"ty");
  response.end = ResponseEnd::close_connection;
  ReplayServer server({response});
  auto stream = HttpStream::open(post_to(server.url()), HttpLimits{});
  BOOST_REQUIRE(stream.has_value());
  std::vector<std::string> lines;
  Expected<std::optional<std::string>> line = std::optional<std::string>();
  while ((line = stream->read_line()) && *line) lines.push_back(**line);
  BOOST_TEST_INFO((line ? std::string("clean end") : line.error().message));
  BOOST_TEST(lines.size() <= 5u);
  BOOST_TEST(lines.at(0) == "event: message_start");
}

BOOST_AUTO_TEST_CASE(a_refused_connection_names_the_url_without_credentials) {
  int port = 0;
  {
    Poco::Net::ServerSocket closed(Poco::Net::SocketAddress("127.0.0.1", 0));
    port = closed.address().port();
  }
  HttpRequest request = post_to("http://user:hunter2@127.0.0.1:" + std::to_string(port));
  auto stream = HttpStream::open(request, HttpLimits{});
  BOOST_REQUIRE(!stream.has_value());
  BOOST_TEST(stream.error().message ==
             "POST http://127.0.0.1:" + std::to_string(port) + "/v1/messages: connection refused");
}

BOOST_AUTO_TEST_CASE(https_is_chosen_by_scheme_and_the_certificate_is_verified) {
  TempFolder folder;
  ServerTls tls = make_self_signed_certificate(folder.path().string());
  ReplayServer server({sse_response("data: over tls\n\n"), sse_response("data: never\n\n")}, tls);
  BOOST_REQUIRE(server.url().rfind("https://", 0) == 0);
  ::setenv("SSL_CERT_FILE", tls.certificate_file.c_str(), 1);
  auto trusted = HttpStream::open(post_to(server.url()), HttpLimits{});
  ::unsetenv("SSL_CERT_FILE");
  BOOST_REQUIRE_MESSAGE(trusted.has_value(), (trusted ? std::string() : trusted.error().message));
  BOOST_TEST(**trusted->read_line() == "data: over tls");
  ::setenv("SSL_CERT_FILE", (folder.path() / "missing.pem").c_str(), 1);
  auto untrusted = HttpStream::open(post_to(server.url()), HttpLimits{});
  ::unsetenv("SSL_CERT_FILE");
  BOOST_REQUIRE(!untrusted.has_value());
  BOOST_TEST(untrusted.error().message.find("TLS failed") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(url_for_messages_drops_user_and_password) {
  BOOST_TEST(url_for_messages("https://u:p@example.com/v1?x=a@b") == "https://example.com/v1?x=a@b");
  BOOST_TEST(url_for_messages("http://127.0.0.1:8080/v1") == "http://127.0.0.1:8080/v1");
}

BOOST_AUTO_TEST_CASE(an_interrupt_ends_a_wait_for_headers_that_would_never_come) {
  // A listening socket nobody accepts on: the connection and the request go through, no answer comes.
  Poco::Net::ServerSocket listener(Poco::Net::SocketAddress("127.0.0.1", 0));
  HttpInterrupt interrupt;
  std::thread interrupter([&] {
    if (interrupt.wait_sent(SteadyClock::now() + 60s)) interrupt.interrupt();
  });
  HttpLimits patient;
  patient.idle = std::chrono::minutes(10);
  auto stream =
      HttpStream::open(post_to("http://127.0.0.1:" + std::to_string(listener.address().port())), patient, &interrupt);
  interrupter.join();
  BOOST_REQUIRE(!stream.has_value());
  BOOST_TEST(stream.error().message.find(": interrupted") != std::string::npos, stream.error().message);
}

BOOST_AUTO_TEST_CASE(an_interrupt_ends_a_read_blocked_on_a_silent_stream) {
  ScriptedResponse response = sse_response("data: one\n\n");
  response.end = ResponseEnd::go_silent;
  ReplayServer server({response});
  HttpInterrupt interrupt;
  HttpLimits patient;
  patient.idle = std::chrono::minutes(10);
  auto stream = HttpStream::open(post_to(server.url()), patient, &interrupt);
  BOOST_REQUIRE(stream.has_value());
  BOOST_TEST(**stream->read_line() == "data: one");
  std::thread interrupter([&] { interrupt.interrupt(); });  // before or during the next read: either ends it
  auto line = stream->read_line();
  while (line && *line) line = stream->read_line();  // what was buffered already may still be read
  interrupter.join();
  BOOST_REQUIRE(!line.has_value());
  BOOST_TEST(line.error().message.find("interrupted") != std::string::npos, line.error().message);
  BOOST_TEST((stream->last_failure() == HttpFailure::broken));
}

BOOST_AUTO_TEST_CASE(nothing_is_sent_once_interrupted) {
  ReplayServer server({sse_response("data: never\n\n")});
  HttpInterrupt interrupt;
  interrupt.interrupt();
  auto stream = HttpStream::open(post_to(server.url()), HttpLimits{}, &interrupt);
  BOOST_REQUIRE(!stream.has_value());
  BOOST_TEST(server.requests().empty());
  BOOST_TEST(!interrupt.wait_sent(SteadyClock::now()));
}

BOOST_AUTO_TEST_SUITE_END()
