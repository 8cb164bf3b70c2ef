// --record and --replay of a model behind an API, on the wire: calls recorded from a real loopback
// model server (the request as sent, the response as streamed) and replayed through the same
// ApiModelClient, provider codec and stream decoder with no server and no key.
#include "base/files.h"
#include "model/anthropic_api.h"
#include "model/api_model_client.h"
#include "model/openai_api.h"
#include "model/recording_client.h"
#include "model/wire_recorder.h"
#include "model/wire_replay.h"
#include "support/fakes.h"
#include "support/fixtures.h"
#include "support/replay_server.h"

#include <boost/test/unit_test.hpp>

#include <fstream>

using namespace agent_run;
using namespace agent_run::test;
using namespace std::chrono_literals;

namespace {

constexpr const char* k_key = "sk-ant-api03-WIREFAKEKEY-never-recorded-0123456789";
constexpr const char* k_secret = "hunter2-secret-value";
constexpr const char* k_recorded_workspace = "/tmp/agent-run-recorded/ws";

/// Record and replay rigs over one recording file, a fake clock and a sleep that only notes the wait.
struct WireRig {
  TempFolder folder;
  FakeClock clock;
  std::vector<long long> waits;
  ApiClientSettings settings;

  WireRig() {
    settings.idle_timeout = 2s;
    settings.max_retries = 2;
  }
  std::filesystem::path file() const { return folder.path() / "model_exchanges.jsonl"; }

  std::unique_ptr<ModelClient> api(const std::string& provider, const std::string& url, const std::string& key,
                                   std::shared_ptr<WireTransport> wire, const std::string& max_tokens_model = "") {
    SleepFunction sleep = [this](std::chrono::milliseconds wait) {
      waits.push_back(wait.count());
      clock.advance(wait);
    };
    if (provider == "openai") {
      return std::make_unique<ApiModelClient>(
          "openai/gpt-4o", make_openai_api(ApiEndpoint{url + "/v1", key}, RequestSettings{"gpt-4o", {}, {}}),
          std::nullopt, settings, clock, sleep, key, std::move(wire));
    }
    RequestSettings request{max_tokens_model.empty() ? "claude-sonnet-4-5" : max_tokens_model, {}, {}};
    return std::make_unique<ApiModelClient>("anthropic/claude-sonnet-4-5",
                                            make_anthropic_api(ApiEndpoint{url, key}, request), std::nullopt, settings,
                                            clock, sleep, key, std::move(wire));
  }

  /// A client that records to file() what the server at `url` answers.
  std::unique_ptr<ModelClient> recording(const std::string& url, const std::string& provider = "anthropic") {
    auto recorder = std::make_shared<WireRecorder>(network_transport(), std::vector<std::string>{k_secret});
    return std::make_unique<RecordingClient>(api(provider, url, provider == "openai" ? "sk-proj-WIREFAKE-0123456789" : k_key, recorder),
                                             file(), k_recorded_workspace, std::vector<std::string>{k_secret},
                                             recorder);
  }

  /// A client that plays file() back: no server (the URL is never called), no key.
  std::unique_ptr<ModelClient> replaying(ReplayMode mode, std::shared_ptr<ReplayTransport>* transport_out = nullptr,
                                         const std::string& provider = "anthropic") {
    auto recording = read_recording(file());
    BOOST_REQUIRE_MESSAGE(recording.has_value(), (recording ? "" : recording.error().message));
    auto transport = std::make_shared<ReplayTransport>(std::move(*recording), mode, "/tmp/replay-elsewhere/ws",
                                                       std::vector<std::string>{k_secret});
    if (transport_out) *transport_out = transport;
    return std::make_unique<ReplayedApiClient>(api(provider, "http://127.0.0.1:9", "", transport), transport);
  }
};

/// A conversation naming the workspace folder (normalised away) and a secret (redacted).
Conversation task_conversation(const std::string& workspace, const std::string& prompt = "Fix the failing test.") {
  return Conversation{"You work in " + workspace + ".",
                      {Message{Role::user, prompt + " The token is " + k_secret + ".", {}, {}, {}}}};
}

std::vector<ToolSchema> read_file_tool(const std::string& path_type = "string") {
  return {ToolSchema{"read_file", "Reads a file.",
                     parse_json(R"({"type":"object","properties":{"path":{"type":")" + path_type +
                                R"("}},"required":["path"]})")
                         .value()}};
}

ScriptedResponse rate_limited() {
  return json_response(429,
                       R"({"type":"error","error":{"type":"rate_limit_error","message":"synthetic: slow down"},"request_id":"req_429"})",
                       {{"retry-after", "7"}, {"request-id", "req_429"}});
}

std::string everything_in(const std::filesystem::path& folder) {
  std::string all;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(folder)) {
    if (!entry.is_regular_file()) continue;
    auto text = read_file(entry.path());
    BOOST_REQUIRE(text.has_value());
    all += *text;
  }
  return all;
}

}  // namespace

BOOST_FIXTURE_TEST_SUITE(wire_replay, WireRig)

BOOST_AUTO_TEST_CASE(a_429_then_a_200_replays_as_such_through_the_decoder_with_no_server_and_no_key) {
  ModelCallRecord live_call;
  std::string live_text;
  {
    ReplayServer server({rate_limited(), sse_response(model_fixture("anthropic_parallel_tools.sse"), "req_ok")});
    auto client = recording(server.url());
    auto turn = client->complete(task_conversation(k_recorded_workspace), read_file_tool());
    BOOST_REQUIRE_MESSAGE(turn.has_value(), (turn ? "" : turn.error().message));
    live_call = client->last_call();
    BOOST_REQUIRE_EQUAL(turn->message.tool_calls.size(), 2u);
    live_text = turn->message.tool_calls[1].input.dump();
  }
  BOOST_TEST(waits == std::vector<long long>{7000});
  waits.clear();

  auto replay = replaying(ReplayMode::strict);
  auto turn = replay->complete(task_conversation("/tmp/replay-elsewhere/ws"), read_file_tool());
  BOOST_REQUIRE_MESSAGE(turn.has_value(), (turn ? "" : turn.error().message));
  BOOST_REQUIRE_EQUAL(turn->message.tool_calls.size(), 2u);
  BOOST_TEST(turn->message.tool_calls[1].input.dump() == live_text);
  const ModelCallRecord call = replay->last_call();
  BOOST_REQUIRE_EQUAL(call.failed_tries.size(), 1u);
  BOOST_TEST(call.failed_tries[0].status == 429);
  BOOST_TEST(call.failed_tries[0].error_type == "rate_limit_error");
  BOOST_TEST(call.failed_tries[0].request_id == "req_429");
  BOOST_TEST(call.failed_tries[0].wait_ms == 7000);  // the recorded retry-after, computed again
  BOOST_TEST(call.request_id == live_call.request_id);
  BOOST_TEST(call.response_model == "claude-sonnet-4-5-20250929");
  // The same wait is asked for (the run's factory gives a replayed client a sleep that sleeps none).
  BOOST_TEST(waits == std::vector<long long>{7000});
}

BOOST_AUTO_TEST_CASE(the_recording_holds_the_wire_request_and_the_streamed_bytes_and_no_key_or_secret) {
  {
    ReplayServer server({rate_limited(), sse_response(model_fixture("anthropic_text.sse"), "req_ok")});
    BOOST_REQUIRE(recording(server.url())->complete(task_conversation(k_recorded_workspace), read_file_tool()).has_value());
  }
  const std::string all = everything_in(folder.path());
  BOOST_TEST(all.find(k_key) == std::string::npos);
  BOOST_TEST(all.find("WIREFAKEKEY") == std::string::npos);
  BOOST_TEST(all.find(k_secret) == std::string::npos);
  std::ifstream in(file());
  std::string header, line;
  std::getline(in, header);
  std::getline(in, line);
  Json first = parse_json(header).value();
  BOOST_TEST(first.get_string("recording") == "agent-run-model-exchanges/2");
  BOOST_TEST(first.get_string("provider") == "anthropic");
  Json exchange = parse_json(line).value();
  const Json::Array& tries = exchange.find("tries")->as_array();
  BOOST_REQUIRE_EQUAL(tries.size(), 2u);
  const Json& request = *tries[0].find("request");
  BOOST_TEST(request.find("headers")->get_string("x-api-key") == "[redacted]");
  BOOST_TEST(request.find("headers")->get_string("anthropic-version") == "2023-06-01");
  BOOST_TEST(request.get_string("url").find("/v1/messages") != std::string::npos);
  const Json& body = *request.find("body");  // the provider's JSON, as sent
  BOOST_TEST(body.get_string("model") == "claude-sonnet-4-5");
  BOOST_TEST(body.find("stream")->as_bool());
  BOOST_TEST(body.find("tools")->as_array().at(0).get_string("name") == "read_file");
  BOOST_TEST(body.dump().find("[redacted]") != std::string::npos);
  BOOST_TEST(tries[0].find("response")->find("status")->as_int() == 429);
  BOOST_TEST(tries[0].find("response")->find("headers")->get_string("retry-after") == "7");
  BOOST_TEST(tries[1].find("response")->get_string("body") == model_fixture("anthropic_text.sse"));
}

BOOST_AUTO_TEST_CASE(a_malformed_chunk_in_a_recorded_stream_fails_the_replay_as_it_fails_live) {
  std::string stream = model_fixture("anthropic_text.sse");
  stream.replace(stream.find("\"text\": \" pass now.\"}}"), 23, "\"text\": \" pass now.\"}");
  settings.max_retries = 0;
  std::string live_error;
  {
    ReplayServer server({sse_response(stream, "req_bad_json")});
    auto turn = recording(server.url())->complete(task_conversation(k_recorded_workspace), {});
    BOOST_REQUIRE(!turn.has_value());
    live_error = turn.error().message;
  }
  BOOST_TEST(live_error.find("stream.malformed") != std::string::npos, live_error);
  auto turn = replaying(ReplayMode::strict)->complete(task_conversation("/tmp/replay-elsewhere/ws"), {});
  BOOST_REQUIRE(!turn.has_value());
  BOOST_TEST(turn.error().message == live_error);
}

BOOST_AUTO_TEST_CASE(a_recorded_good_stream_broken_by_hand_fails_in_the_decoder_on_replay) {
  {
    ReplayServer server({sse_response(model_fixture("anthropic_text.sse"), "req_ok")});
    BOOST_REQUIRE(recording(server.url())->complete(task_conversation(k_recorded_workspace), {}).has_value());
  }
  std::string text = read_file(file()).value();
  const std::string good = R"(\"text\": \" pass now.\"}})";
  BOOST_REQUIRE(text.find(good) != std::string::npos);
  text.replace(text.find(good), good.size(), R"(\"text\": \" pass now.\"})");
  std::ofstream(file(), std::ios::trunc) << text;
  auto replay = replaying(ReplayMode::strict);
  auto turn = replay->complete(task_conversation("/tmp/replay-elsewhere/ws"), {});
  BOOST_REQUIRE(!turn.has_value());
  BOOST_TEST(replay->last_call().failed_tries.at(0).error_type == "stream.malformed");
  // The decoder's failure is retried, as live; the recording has no second try to give.
  BOOST_TEST(turn.error().message.find("replay: request 1 took 1 try when recorded; this replay asked for try 2") !=
                 std::string::npos,
             turn.error().message);
}

BOOST_AUTO_TEST_CASE(a_changed_prompt_fails_strict_with_a_diff_of_the_wire_json) {
  {
    ReplayServer server({sse_response(model_fixture("anthropic_text.sse"), "req_ok")});
    BOOST_REQUIRE(recording(server.url())->complete(task_conversation(k_recorded_workspace), read_file_tool()).has_value());
  }
  auto turn = replaying(ReplayMode::strict)
                  ->complete(task_conversation("/tmp/replay-elsewhere/ws", "Fix the flaky test."), read_file_tool());
  BOOST_REQUIRE(!turn.has_value());
  const std::string& message = turn.error().message;
  BOOST_TEST(message.find("anthropic/claude-sonnet-4-5: replay: request 1 differs from the recording (") == 0, message);
  BOOST_TEST(message.find("\n-           \"text\": \"Fix the failing test. The token is [redacted].\",\n") !=
                 std::string::npos,
             message);
  BOOST_TEST(message.find("\n+           \"text\": \"Fix the flaky test. The token is [redacted].\",\n") !=
                 std::string::npos,
             message);
  BOOST_TEST(message.find("(--replay-loose plays it all the same)") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_changed_tool_schema_fails_strict_with_a_diff_and_only_warns_loose) {
  {
    ReplayServer server({sse_response(model_fixture("anthropic_text.sse"), "req_ok")});
    BOOST_REQUIRE(recording(server.url())->complete(task_conversation(k_recorded_workspace), read_file_tool()).has_value());
  }
  auto strict = replaying(ReplayMode::strict)->complete(task_conversation("/tmp/replay-elsewhere/ws"),
                                                        read_file_tool("integer"));
  BOOST_REQUIRE(!strict.has_value());
  BOOST_TEST(strict.error().message.find("\n            \"path\": {\n-             \"type\": \"string\"\n+             "
                                         "\"type\": \"integer\"\n") != std::string::npos,
             strict.error().message);
  std::shared_ptr<ReplayTransport> transport;
  auto loose = replaying(ReplayMode::loose, &transport)
                   ->complete(task_conversation("/tmp/replay-elsewhere/ws"), read_file_tool("integer"));
  BOOST_REQUIRE(loose.has_value());
  BOOST_TEST(loose->message.text == "The tests pass now.");
  BOOST_REQUIRE_EQUAL(transport->warnings().size(), 1u);
  BOOST_TEST(transport->warnings()[0].find("replay: request 1 differs from the recording") == 0);
}

BOOST_AUTO_TEST_CASE(a_changed_request_setting_is_a_difference_too) {
  {
    ReplayServer server({sse_response(model_fixture("anthropic_text.sse"), "req_ok")});
    BOOST_REQUIRE(recording(server.url())->complete(task_conversation(k_recorded_workspace), {}).has_value());
  }
  auto recording = read_recording(file());
  BOOST_REQUIRE(recording.has_value());
  auto transport = std::make_shared<ReplayTransport>(std::move(*recording), ReplayMode::strict, "/tmp/replay-elsewhere/ws",
                                                     std::vector<std::string>{k_secret});
  ReplayedApiClient replay(api("anthropic", "http://127.0.0.1:9", "", transport, "claude-opus-4-1"), transport);
  auto turn = replay.complete(task_conversation("/tmp/replay-elsewhere/ws"), {});
  BOOST_REQUIRE(!turn.has_value());
  BOOST_TEST(turn.error().message.find("\n-   \"model\": \"claude-sonnet-4-5\",\n+   \"model\": \"claude-opus-4-1\",\n") !=
                 std::string::npos,
             turn.error().message);
}

BOOST_AUTO_TEST_CASE(an_openai_stream_records_and_replays_through_its_decoder) {
  {
    ReplayServer server({sse_response(model_fixture("openai_parallel_tools.sse"), "req_oa")});
    BOOST_REQUIRE(recording(server.url(), "openai")->complete(task_conversation(k_recorded_workspace), read_file_tool()).has_value());
  }
  const std::string all = everything_in(folder.path());
  BOOST_TEST(all.find("WIREFAKE") == std::string::npos);
  BOOST_TEST(all.find(R"("authorization":"[redacted]")") != std::string::npos);
  auto turn = replaying(ReplayMode::strict, nullptr, "openai")
                  ->complete(task_conversation("/tmp/replay-elsewhere/ws"), read_file_tool());
  BOOST_REQUIRE_MESSAGE(turn.has_value(), (turn ? "" : turn.error().message));
  BOOST_TEST(turn->message.tool_calls.size() == 2u);
}

BOOST_AUTO_TEST_CASE(a_second_call_beyond_the_recording_is_an_error_not_a_retry) {
  {
    ReplayServer server({sse_response(model_fixture("anthropic_text.sse"), "req_ok")});
    BOOST_REQUIRE(recording(server.url())->complete(task_conversation(k_recorded_workspace), {}).has_value());
  }
  auto replay = replaying(ReplayMode::strict);
  BOOST_REQUIRE(replay->complete(task_conversation("/tmp/replay-elsewhere/ws"), {}).has_value());
  auto second = replay->complete(task_conversation("/tmp/replay-elsewhere/ws"), {});
  BOOST_REQUIRE(!second.has_value());
  BOOST_TEST(second.error().message.find("replay: request 2 was never recorded") != std::string::npos,
             second.error().message);
  BOOST_TEST(replay->last_call().failed_tries.size() == 1u);
}

BOOST_AUTO_TEST_CASE(a_recording_in_the_old_format_is_refused_naming_the_file_and_both_formats) {
  std::ofstream(file()) << R"({"recording":"agent-run-model-exchanges/1","model":"script","workspace":"/w"})" << "\n";
  auto recording = read_recording(file());
  BOOST_REQUIRE(!recording.has_value());
  BOOST_TEST(recording.error().message ==
             file().string() +
                 ":1: a recording in the format 'agent-run-model-exchanges/1'; this agent-run replays "
                 "'agent-run-model-exchanges/2' (the requests as sent on the wire, the responses as streamed): "
                 "record it again with --record");
}

BOOST_AUTO_TEST_SUITE_END()
