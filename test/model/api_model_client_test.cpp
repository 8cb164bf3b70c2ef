#include "model/api_model_client.h"
#include "model/anthropic_api.h"
#include "model/openai_api.h"
#include "support/fakes.h"
#include "support/replay_server.h"

#include <Poco/Net/ServerSocket.h>
#include <boost/test/unit_test.hpp>

#include <tuple>

using namespace agent_run;
using namespace agent_run::test;
using namespace std::chrono_literals;

namespace {

constexpr const char* k_key = "sk-ant-api03-FAKEKEYfor-tests-0123456789abcdef";
using SteadyClock = std::chrono::steady_clock;

/// A client wired to a replay server, a fake clock, and a sleep that only records the wait.
struct ClientRig {
  FakeClock clock;
  std::vector<long long> waits;
  ApiClientSettings settings;

  ClientRig() { settings.idle_timeout = 2s; }

  std::unique_ptr<ApiModelClient> anthropic(const std::string& url, std::optional<ModelPrice> price = std::nullopt) {
    return std::make_unique<ApiModelClient>(
        "anthropic/claude-sonnet-4-5",
        make_anthropic_api(ApiEndpoint{url, k_key}, RequestSettings{"claude-sonnet-4-5", {}, {}}), price, settings,
        clock, sleeper(), k_key);
  }
  std::unique_ptr<ApiModelClient> openai(const std::string& url, const std::string& key) {
    return std::make_unique<ApiModelClient>(
        "openai/gpt-4o", make_openai_api(ApiEndpoint{url + "/v1", key}, RequestSettings{"gpt-4o", {}, {}}),
        std::nullopt, settings, clock, sleeper(), key);
  }
  SleepFunction sleeper() {
    return [this](std::chrono::milliseconds wait) {
      waits.push_back(wait.count());
      clock.advance(wait);
    };
  }
};

Conversation hello() { return Conversation{"You are terse.", {Message{Role::user, "Say hi.", {}, {}, {}}}}; }

ScriptedResponse anthropic_error(int status, const std::string& type, const std::string& message,
                                 const std::string& request_id,
                                 std::vector<std::pair<std::string, std::string>> headers = {}) {
  headers.emplace_back("request-id", request_id);
  return json_response(status,
                       R"({"type":"error","error":{"type":")" + type + R"(","message":")" + message +
                           R"("},"request_id":")" + request_id + R"("})",
                       std::move(headers));
}

ScriptedResponse good_reply() { return sse_response(model_fixture("anthropic_text.sse"), "req_ok"); }

long long ms_since(SteadyClock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(SteadyClock::now() - start).count();
}

}  // namespace

BOOST_FIXTURE_TEST_SUITE(api_model_client, ClientRig)

BOOST_AUTO_TEST_CASE(a_streamed_reply_becomes_a_priced_turn_with_its_request_id) {
  ReplayServer server({good_reply()});
  auto client = anthropic(server.url(), ModelPrice{3.0, 15.0, 0.3, 3.75});
  auto turn = client->complete(hello(), {});
  BOOST_REQUIRE_MESSAGE(turn.has_value(), (turn ? std::string() : turn.error().message));
  BOOST_TEST(turn->message.text == "The tests pass now.");
  BOOST_TEST(*turn->usage.cost_usd == (31 * 3.0 + 12 * 15.0) / 1e6, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(client->last_call().request_id == "req_ok");
  BOOST_TEST(client->last_call().response_model == "claude-sonnet-4-5-20250929");
  BOOST_TEST(client->last_call().failed_tries.empty());
  auto requests = server.requests();
  BOOST_REQUIRE(requests.size() == 1u);
  BOOST_TEST(requests[0].uri == "/v1/messages");
  BOOST_TEST(requests[0].header("x-api-key") == k_key);
  BOOST_TEST(requests[0].header("anthropic-version") == "2023-06-01");
  BOOST_TEST(parse_json(requests[0].body)->find("stream")->as_bool());
}

BOOST_AUTO_TEST_CASE(lines_and_events_split_across_chunks_decode_the_same) {
  ReplayServer server({sse_response_in_pieces(model_fixture("anthropic_parallel_tools.sse"), 7)});
  auto turn = anthropic(server.url())->complete(hello(), {});
  BOOST_REQUIRE(turn.has_value());
  BOOST_REQUIRE(turn->message.tool_calls.size() == 2u);
  BOOST_TEST(turn->message.tool_calls[1].input.dump() == R"({"pattern":"parse_config","path":"tests"})");
  BOOST_TEST(!turn->usage.cost_usd.has_value());  // no price given: unknown, not zero
}

BOOST_AUTO_TEST_CASE(a_429_waits_the_servers_retry_after_then_succeeds) {
  ReplayServer server({anthropic_error(429, "rate_limit_error", "synthetic: per-minute rate limit exceeded",
                                       "req_test_429", {{"retry-after", "7"}}),
                       good_reply()});
  auto client = anthropic(server.url());
  auto turn = client->complete(hello(), {});
  BOOST_REQUIRE(turn.has_value());
  BOOST_TEST(waits == std::vector<long long>{7000});
  const ModelCallRecord call = client->last_call();
  BOOST_REQUIRE(call.failed_tries.size() == 1u);
  BOOST_TEST(call.failed_tries[0].try_number == 1);
  BOOST_TEST(call.failed_tries[0].status == 429);
  BOOST_TEST(call.failed_tries[0].error_type == "rate_limit_error");
  BOOST_TEST(call.failed_tries[0].request_id == "req_test_429");
  BOOST_TEST(call.failed_tries[0].wait_ms == 7000);
  BOOST_TEST(call.request_id == "req_ok");
  BOOST_TEST(server.requests().size() == 2u);
}

// docs/configuration.md's caps: a server's retry-after is waited up to 60 s from Anthropic and 120 s from
// OpenAI; a longer one falls back to the computed backoff (the first: 0.5 s less up to 25 %).
BOOST_AUTO_TEST_CASE(anthropics_retry_after_is_waited_up_to_60_seconds_and_no_longer) {
  for (auto [retry_after, expected_min, expected_max] :
       {std::tuple{"60", 60000, 60000}, {"61", 375, 500}, {"600", 375, 500}}) {
    BOOST_TEST_CONTEXT("retry-after: " << retry_after) {
      waits.clear();
      ReplayServer server(
          {anthropic_error(429, "rate_limit_error", "slow down", "req_cap", {{"retry-after", retry_after}}),
           good_reply()});
      auto turn = anthropic(server.url())->complete(hello(), {});
      BOOST_REQUIRE(turn.has_value());
      BOOST_REQUIRE(waits.size() == 1u);
      BOOST_TEST(waits[0] >= expected_min);
      BOOST_TEST(waits[0] <= expected_max);
    }
  }
  waits.clear();
  ReplayServer in_ms(
      {anthropic_error(429, "rate_limit_error", "slow down", "req_ms", {{"retry-after-ms", "60000"}}), good_reply()});
  BOOST_REQUIRE(anthropic(in_ms.url())->complete(hello(), {}).has_value());
  BOOST_TEST(waits == std::vector<long long>{60000});
}

BOOST_AUTO_TEST_CASE(openais_retry_after_is_waited_up_to_120_seconds_and_no_longer) {
  for (auto [retry_after, expected_min, expected_max] :
       {std::tuple{"120", 120000, 120000}, {"61", 61000, 61000}, {"121", 375, 500}}) {
    BOOST_TEST_CONTEXT("retry-after: " << retry_after) {
      waits.clear();
      ReplayServer server(
          {json_response(429, R"({"error":{"message":"slow down","type":"rate_limit_exceeded","code":null}})",
                         {{"retry-after", retry_after}}),
           sse_response(model_fixture("openai_text.sse"))});
      auto turn = openai(server.url(), "sk-x")->complete(hello(), {});
      BOOST_REQUIRE(turn.has_value());
      BOOST_REQUIRE(waits.size() == 1u);
      BOOST_TEST(waits[0] >= expected_min);
      BOOST_TEST(waits[0] <= expected_max);
    }
  }
}

BOOST_AUTO_TEST_CASE(a_529_overloaded_backs_off_exponentially_with_jitter) {
  ReplayServer server({anthropic_error(529, "overloaded_error", "Overloaded", "req_test_529"),
                       anthropic_error(529, "overloaded_error", "Overloaded", "req_test_529b"), good_reply()});
  auto client = anthropic(server.url());
  auto turn = client->complete(hello(), {});
  BOOST_REQUIRE(turn.has_value());
  BOOST_REQUIRE(waits.size() == 2u);
  BOOST_TEST(waits[0] >= 375);
  BOOST_TEST(waits[0] <= 500);
  BOOST_TEST(waits[1] >= 750);
  BOOST_TEST(waits[1] <= 1000);
  BOOST_TEST(client->last_call().failed_tries[1].error_type == "overloaded_error");
  BOOST_TEST(client->last_call().failed_tries[1].status == 529);
}

BOOST_AUTO_TEST_CASE(a_500_then_success) {
  ReplayServer server({anthropic_error(500, "api_error", "Internal server error", "req_500"), good_reply()});
  auto client = anthropic(server.url());
  BOOST_TEST(client->complete(hello(), {}).has_value());
  BOOST_TEST(client->last_call().failed_tries.at(0).status == 500);
}

BOOST_AUTO_TEST_CASE(an_error_event_mid_stream_discards_the_partial_turn_and_retries) {
  std::string partial = model_fixture("anthropic_tool_use.sse");
  partial = partial.substr(
      0, partial.find("event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1"));
  partial +=
      "event: error\ndata: {\"type\": \"error\", \"error\": {\"type\": \"overloaded_error\", \"message\": "
      "\"Overloaded\"}}\n\n";
  ReplayServer server({sse_response(partial, "req_broken"), good_reply()});
  auto client = anthropic(server.url());
  auto turn = client->complete(hello(), {});
  BOOST_REQUIRE(turn.has_value());
  BOOST_TEST(turn->message.text == "The tests pass now.");  // nothing of the broken stream's text
  const ModelTryRecord failed = client->last_call().failed_tries.at(0);
  BOOST_TEST(failed.status == 200);
  BOOST_TEST(failed.error_type == "overloaded_error");
  BOOST_TEST(failed.request_id == "req_broken");
}

BOOST_AUTO_TEST_CASE(a_connection_closed_mid_stream_is_retried) {
  std::string partial = model_fixture("anthropic_text.sse");
  ScriptedResponse cut = sse_response(partial.substr(0, partial.find("event: message_delta") + 30), "req_cut");
  cut.end = ResponseEnd::close_connection;
  ReplayServer server({cut, good_reply()});
  auto client = anthropic(server.url());
  auto turn = client->complete(hello(), {});
  BOOST_REQUIRE(turn.has_value());
  BOOST_TEST(client->last_call().failed_tries.at(0).error_type == "stream.incomplete");
}

BOOST_AUTO_TEST_CASE(a_server_that_goes_silent_is_cut_at_the_idle_timeout_and_retried) {
  settings.idle_timeout = 300ms;
  ScriptedResponse silent = sse_response(model_fixture("anthropic_text.sse").substr(0, 400), "req_silent");
  silent.end = ResponseEnd::go_silent;
  ReplayServer server({silent, good_reply()});
  auto client = anthropic(server.url());
  auto turn = client->complete(hello(), {});  // a server silent for good: only the idle timeout ends the try
  BOOST_REQUIRE(turn.has_value());
  const ModelTryRecord failed = client->last_call().failed_tries.at(0);
  BOOST_TEST(failed.error_type == "timeout");
  BOOST_TEST(failed.message.find("idle timeout") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(malformed_json_in_a_chunk_is_retried) {
  std::string stream = model_fixture("anthropic_text.sse");
  stream.replace(stream.find("\"text\": \" pass now.\"}}"), 23, "\"text\": \" pass now.\"}");
  ReplayServer server({sse_response(stream, "req_bad_json"), good_reply()});
  auto client = anthropic(server.url());
  BOOST_TEST(client->complete(hello(), {}).has_value());
  BOOST_TEST(client->last_call().failed_tries.at(0).error_type == "stream.malformed");
}

BOOST_AUTO_TEST_CASE(a_401_is_not_retried_and_says_which_variable_to_check) {
  ReplayServer server({anthropic_error(401, "authentication_error", "invalid x-api-key", "req_401"), good_reply()});
  auto client = anthropic(server.url());
  auto turn = client->complete(hello(), {});
  BOOST_REQUIRE(!turn.has_value());
  BOOST_TEST(turn.error().message ==
             "anthropic/claude-sonnet-4-5: HTTP 401 authentication_error: invalid x-api-key (request id req_401); "
             "check ANTHROPIC_API_KEY");
  BOOST_TEST(server.requests().size() == 1u);
  BOOST_TEST(waits.empty());
}

BOOST_AUTO_TEST_CASE(a_404_for_an_unknown_model_names_the_endpoint) {
  ReplayServer server({anthropic_error(404, "not_found_error", "model: claude-sonnet-9", "req_404")});
  auto turn = anthropic(server.url())->complete(hello(), {});
  BOOST_REQUIRE(!turn.has_value());
  BOOST_TEST(
      turn.error().message.find("HTTP 404 not_found_error: model: claude-sonnet-9 (request id req_404); check the "
                                "model name and ANTHROPIC_BASE_URL (calling " +
                                server.url() + "/v1/messages)") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(retries_give_up_after_the_limit_saying_how_many_tries_over_how_long) {
  settings.max_retries = 2;
  ReplayServer server({anthropic_error(529, "overloaded_error", "Overloaded", "r1", {{"retry-after", "2"}}),
                       anthropic_error(529, "overloaded_error", "Overloaded", "r2", {{"retry-after", "2"}}),
                       anthropic_error(529, "overloaded_error", "Overloaded", "r3", {{"retry-after", "2"}}),
                       good_reply()});
  auto client = anthropic(server.url());
  auto turn = client->complete(hello(), {});
  BOOST_REQUIRE(!turn.has_value());
  BOOST_TEST(turn.error().message ==
             "anthropic/claude-sonnet-4-5: gave up after 3 tries over 4.0s; the last: HTTP 529 overloaded_error: "
             "Overloaded (request id r3)");
  BOOST_TEST(client->last_call().failed_tries.size() == 3u);
  BOOST_TEST(client->last_call().failed_tries[2].wait_ms == 0);
}

BOOST_AUTO_TEST_CASE(an_unreachable_endpoint_is_retried_then_named) {
  settings.max_retries = 1;
  int port = 0;
  {
    Poco::Net::ServerSocket closed(Poco::Net::SocketAddress("127.0.0.1", 0));
    port = closed.address().port();
  }
  const std::string url = "http://127.0.0.1:" + std::to_string(port);
  auto turn = anthropic(url)->complete(hello(), {});
  BOOST_REQUIRE(!turn.has_value());
  BOOST_TEST(turn.error().message.find("gave up after 2 tries") != std::string::npos);
  BOOST_TEST(turn.error().message.find("connection: POST " + url +
                                       "/v1/messages: connection refused; check ANTHROPIC_BASE_URL") !=
             std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_attempts_deadline_cuts_a_call_in_flight) {
  SystemClock real_clock;
  ScriptedResponse silent = sse_response(model_fixture("anthropic_text.sse").substr(0, 400), "req_slow");
  silent.end = ResponseEnd::go_silent;
  ReplayServer server({silent, good_reply()});
  settings.idle_timeout = 30s;
  ApiModelClient client(
      "anthropic/claude-sonnet-4-5",
      make_anthropic_api(ApiEndpoint{server.url(), k_key}, RequestSettings{"claude-sonnet-4-5", {}, {}}), std::nullopt,
      settings, real_clock, sleeper(), k_key);
  const auto start = SteadyClock::now();
  client.set_deadline(real_clock.now() + 600ms);
  auto turn = client.complete(hello(), {});
  const long long took = ms_since(start);
  BOOST_REQUIRE(!turn.has_value());
  BOOST_TEST(turn.error().message.find("the attempt's time limit was reached during the model call") !=
             std::string::npos);
  BOOST_TEST(took >= 550);  // not before the deadline (the server stays silent for 30 s of idle timeout)
  BOOST_TEST(server.requests().size() == 1u);
}

BOOST_AUTO_TEST_CASE(a_prompt_too_long_ends_the_turn_with_a_context_window_stop) {
  ReplayServer server({anthropic_error(400, "invalid_request_error",
                                       "prompt is too long: 210931 tokens > 200000 maximum", "req_long")});
  auto turn = anthropic(server.url())->complete(hello(), {});
  BOOST_REQUIRE(turn.has_value());
  BOOST_TEST((turn->stop_reason == StopReason::context_window));
}

// A model call has no side effect: a 200 whose body is not the stream (a proxy's page, a JSON body)
// is a transient fault, retried like a 5xx and recorded as a failed try of the call.
BOOST_AUTO_TEST_CASE(a_200_that_is_not_an_event_stream_is_retried_and_recorded_as_a_failed_try) {
  ScriptedResponse proxy_page{200, {{"Content-Type", "text/html; charset=utf-8"}, {"request-id", "req_html"}},
                              {"<html><body>a proxy's error page</body></html>"}};
  ReplayServer server({json_response(200, R"({"type":"message","content":[]})", {{"request-id", "req_json"}}),
                       proxy_page, good_reply()});
  auto client = anthropic(server.url());
  auto turn = client->complete(hello(), {});
  BOOST_REQUIRE_MESSAGE(turn.has_value(), (turn ? std::string() : turn.error().message));
  BOOST_TEST(turn->message.text == "The tests pass now.");
  const ModelCallRecord call = client->last_call();
  BOOST_REQUIRE(call.failed_tries.size() == 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    BOOST_TEST(call.failed_tries[i].try_number == static_cast<int>(i + 1));
    BOOST_TEST(call.failed_tries[i].status == 200);
    BOOST_TEST(call.failed_tries[i].error_type == "stream.not_sse");
    BOOST_TEST(call.failed_tries[i].wait_ms > 0);
  }
  BOOST_TEST(call.failed_tries[0].request_id == "req_json");
  BOOST_TEST(call.failed_tries[1].message.find("Content-Type 'text/html; charset=utf-8'") != std::string::npos);
  BOOST_TEST(waits.size() == 2u);
  BOOST_TEST(call.request_id == "req_ok");
  BOOST_TEST(server.requests().size() == 3u);
}

BOOST_AUTO_TEST_CASE(replies_of_200_that_are_never_the_stream_spend_the_same_retry_budget_then_say_why) {
  settings.max_retries = 2;
  ReplayServer server({json_response(200, R"({"id":"chatcmpl-1","choices":[]})"),
                       json_response(200, R"({"id":"chatcmpl-2","choices":[]})"),
                       json_response(200, R"({"id":"chatcmpl-3","choices":[]})"), good_reply()});
  auto client = openai(server.url(), "");
  auto turn = client->complete(hello(), {});
  BOOST_REQUIRE(!turn.has_value());
  BOOST_TEST(turn.error().message.find("gave up after 3 tries") != std::string::npos, turn.error().message);
  BOOST_TEST(turn.error().message.find("stream.not_sse") != std::string::npos);
  BOOST_TEST(turn.error().message.find("not a text/event-stream") != std::string::npos);
  BOOST_TEST(client->last_call().failed_tries.size() == 3u);
  BOOST_TEST(server.requests().size() == 3u);  // the fourth, good reply was never asked for
}

BOOST_AUTO_TEST_CASE(an_openai_401_echoing_a_masked_key_never_shows_the_key) {
  const std::string key = "sk-proj-FAKEKEYabcdefghijklmnopqrstuvwxyz0123456789";
  ReplayServer server({json_response(
      401,
      R"({"error":{"message":"Incorrect API key provided: sk-proj-********************************************6789. You can find your API key at https://platform.openai.com/account/api-keys. Key: )" +
          key + R"(","type":"invalid_request_error","param":null,"code":"invalid_api_key"}})",
      {{"x-request-id", "req_oai_401"}})});
  auto turn = openai(server.url(), key)->complete(hello(), {});
  BOOST_REQUIRE(!turn.has_value());
  BOOST_TEST(turn.error().message.find(key) == std::string::npos);
  BOOST_TEST(turn.error().message.find("6789") == std::string::npos);
  BOOST_TEST(turn.error().message.find("check OPENAI_API_KEY") != std::string::npos);
  BOOST_TEST(turn.error().message.find("(request id req_oai_401)") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(an_openai_quota_error_is_not_retried_and_says_why) {
  ReplayServer server(
      {json_response(
           429,
           R"({"error":{"message":"You exceeded your current quota.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}})",
           {{"retry-after", "1"}}),
       sse_response(model_fixture("openai_text.sse"))});
  auto turn = openai(server.url(), "sk-x")->complete(hello(), {});
  BOOST_REQUIRE(!turn.has_value());
  BOOST_TEST(turn.error().message.find("credit, quota or spend limit") != std::string::npos);
  BOOST_TEST(server.requests().size() == 1u);
}

BOOST_AUTO_TEST_CASE(an_openai_stream_is_read_through_to_done) {
  ReplayServer server({sse_response(model_fixture("openai_parallel_tools.sse"), "req_oai")});
  auto client = openai(server.url(), "sk-x");
  auto turn = client->complete(hello(), {});
  BOOST_REQUIRE(turn.has_value());
  BOOST_TEST(turn->message.tool_calls.size() == 2u);
  BOOST_TEST(turn->usage.cache_read_input_tokens == 3072);
  BOOST_TEST(client->last_call().request_id == "req_oai");
  BOOST_TEST(server.requests().at(0).uri == "/v1/chat/completions");
  BOOST_TEST(server.requests().at(0).header("Authorization") == "Bearer sk-x");
}

BOOST_AUTO_TEST_SUITE_END()
