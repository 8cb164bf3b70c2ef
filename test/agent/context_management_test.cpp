#include "agent/agent_loop.h"
#include "agent/system_prompt.h"
#include "agent/transcript_recorder.h"
#include "model/anthropic_api.h"
#include "model/api_model_client.h"
#include "policy/policy.h"
#include "support/fakes.h"
#include "support/fixtures.h"
#include "support/replay_server.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <sstream>

using namespace agent_run;
using namespace agent_run::test;

namespace {

constexpr const char* k_key = "sk-ant-api03-FAKEKEYfor-tests-0123456789abcdef";
constexpr std::int64_t k_window = 16000;    // tokens: the model's, as the client is told
constexpr std::size_t k_file_bytes = 6000;  // each read_file result: about 1,500 tokens
constexpr int k_session_turns = 300;        // the model ends its turn on this one
const char* const k_summary_marker = "about to outgrow the model's context window";  // in the summary request

/// One Anthropic SSE event.
std::string event(const std::string& type, const Json& data) {
  return "event: " + type + "\ndata: " + data.dump() + "\n\n";
}

Json usage(std::int64_t input_tokens) {
  return Json::object().set("input_tokens", input_tokens).set("output_tokens", 20);
}

Json message_start(std::int64_t input_tokens) {
  return Json::object()
      .set("type", "message_start")
      .set("message", Json::object()
                          .set("id", "msg_x")
                          .set("type", "message")
                          .set("role", "assistant")
                          .set("model", "claude-sonnet-4-5")
                          .set("content", Json::array())
                          .set("usage", usage(input_tokens)));
}

std::string stream_end(const std::string& stop_reason, std::int64_t input_tokens) {
  return event("message_delta", Json::object()
                                    .set("type", "message_delta")
                                    .set("delta", Json::object().set("stop_reason", stop_reason))
                                    .set("usage", usage(input_tokens))) +
         event("message_stop", Json::object().set("type", "message_stop"));
}

/// A streamed answer that says `text` and ends the turn.
ScriptedResponse text_answer(const std::string& text, std::int64_t input_tokens) {
  std::string stream = event("message_start", message_start(input_tokens));
  stream += event("content_block_start", Json::object()
                                             .set("type", "content_block_start")
                                             .set("index", 0)
                                             .set("content_block", Json::object().set("type", "text").set("text", "")));
  if (!text.empty()) {
    stream +=
        event("content_block_delta", Json::object()
                                         .set("type", "content_block_delta")
                                         .set("index", 0)
                                         .set("delta", Json::object().set("type", "text_delta").set("text", text)));
  }
  stream += event("content_block_stop", Json::object().set("type", "content_block_stop").set("index", 0));
  return sse_response(stream + stream_end("end_turn", input_tokens));
}

/// A streamed answer that calls read_file on `path`.
ScriptedResponse read_file_call(int turn, const std::string& path, std::int64_t input_tokens) {
  std::string stream = event("message_start", message_start(input_tokens));
  stream += event("content_block_start", Json::object()
                                             .set("type", "content_block_start")
                                             .set("index", 0)
                                             .set("content_block", Json::object()
                                                                       .set("type", "tool_use")
                                                                       .set("id", "toolu_" + std::to_string(turn))
                                                                       .set("name", "read_file")
                                                                       .set("input", Json::object())));
  stream += event("content_block_delta",
                  Json::object()
                      .set("type", "content_block_delta")
                      .set("index", 0)
                      .set("delta", Json::object()
                                        .set("type", "input_json_delta")
                                        .set("partial_json", Json::object().set("path", path).dump())));
  stream += event("content_block_stop", Json::object().set("type", "content_block_stop").set("index", 0));
  return sse_response(stream + stream_end("tool_use", input_tokens));
}

/// A model behind a loopback Anthropic API that reads a different large file each turn and ends its
/// turn on turn 300; asked for a summary, it gives one (or, with `summaries_fail`, an empty answer).
/// It reports each request's input tokens as a quarter of its body's bytes.
struct ReadingModelServer {
  bool summaries_fail = false;
  std::string summary = "I read big_0.txt to big_4.txt over and over; nothing is left open.";
  std::atomic<int> turns{0};
  std::atomic<int> summaries{0};
  ReplayServer server{[this](const ReceivedRequest& request) { return answer(request); }};

  ScriptedResponse answer(const ReceivedRequest& request) {
    const auto input_tokens = static_cast<std::int64_t>(request.body.size() / 4);
    if (request.body.find(k_summary_marker) != std::string::npos) {
      ++summaries;
      return text_answer(summaries_fail ? "" : summary, input_tokens);
    }
    const int turn = ++turns;
    if (turn >= k_session_turns) return text_answer("done: every file was read", input_tokens);
    return read_file_call(turn, "big_" + std::to_string(turn % 5) + ".txt", input_tokens);
  }
};

/// A workspace of five large files, the built-in tools, a real Anthropic client on the loopback
/// server, and a transcript file.
struct ContextFixture {
  TempFolder folder;
  ReadingModelServer model_server;
  ToolRegistry tools = make_tool_registry(std::nullopt);
  Policy policy = builtin_policy();
  FakeClock clock;
  ToolScope scope;
  SessionState session;
  AgentRequest request;
  AgentRecord record;

  ContextFixture() {
    scope.workspace = folder.path();
    for (int i = 0; i < 5; ++i) folder.write("big_" + std::to_string(i) + ".txt", file_text(i));
    request.system_prompt = headless_rules();
    request.prompt = "Read the files until you are done.";
    request.limits.turns = 400;
  }

  static std::string file_text(int i) {
    std::string text;
    while (text.size() < k_file_bytes)
      text += "line " + std::to_string(text.size()) + " of file " + std::to_string(i) + "\n";
    return text;
  }

  std::vector<Json> run_loop() {
    ApiClientSettings settings;
    settings.context_window = k_window;
    settings.max_retries = 0;
    ApiModelClient model(
        "anthropic/claude-sonnet-4-5",
        make_anthropic_api(ApiEndpoint{model_server.server.url(), k_key}, RequestSettings{"claude-sonnet-4-5", {}, {}}),
        std::nullopt, settings, clock, [](std::chrono::milliseconds) {}, k_key);
    const std::string transcript = folder.path().string() + "/transcript.jsonl";
    {
      TranscriptRecorder recorder(transcript);
      AgentLoop loop(model, tools, policy, clock, {&recorder});
      loop.run(request, scope, session, record);
    }
    std::vector<Json> lines;
    std::ifstream in(transcript);
    for (std::string line; std::getline(in, line);) lines.push_back(parse_json(line).value());
    return lines;
  }

  /// The kinds of the transcript's context events, in order.
  static std::vector<std::string> context_kinds(const std::vector<Json>& lines) {
    std::vector<std::string> kinds;
    for (const Json& line : lines) {
      if (line.find("type")->as_string() == "context") kinds.push_back(line.find("kind")->as_string());
    }
    return kinds;
  }

  /// The largest request the server was sent, in tokens as it counts them.
  std::int64_t largest_request() const {
    std::size_t largest = 0;
    for (const ReceivedRequest& received : model_server.server.requests())
      largest = std::max(largest, received.body.size());
    return static_cast<std::int64_t>(largest / 4);
  }
};

}  // namespace

BOOST_FIXTURE_TEST_SUITE(context_management, ContextFixture)

BOOST_AUTO_TEST_CASE(a_300_turn_session_that_would_overflow_the_window_completes_with_prunings_and_a_compaction) {
  const std::vector<Json> lines = run_loop();
  BOOST_REQUIRE(record.stop_reason.has_value());
  BOOST_TEST(to_string(*record.stop_reason) == "end_turn");
  BOOST_TEST(record.turns == k_session_turns);
  // 300 results of 1,500 tokens would be 450,000 tokens: no request came near the window.
  BOOST_TEST(largest_request() < k_window);
  BOOST_TEST(record.context.window.value_or(0) == k_window);
  BOOST_TEST(record.context.prunings > 0);
  BOOST_TEST(record.context.compactions >= 1);
  BOOST_TEST(record.context.failed_compactions == 0);
  BOOST_TEST(model_server.summaries.load() == record.context.compactions);
  const std::vector<std::string> kinds = context_kinds(lines);
  BOOST_TEST(std::count(kinds.begin(), kinds.end(), "pruned") == record.context.prunings);
  BOOST_TEST(std::count(kinds.begin(), kinds.end(), "compacted") == record.context.compactions);
  BOOST_REQUIRE(!kinds.empty());
  BOOST_TEST(kinds.front() == "pruned");  // pruning comes first; compaction only when it is not enough
  const auto compaction_calls = std::count_if(record.model_calls.begin(), record.model_calls.end(),
                                              [](const ModelCallRecord& call) { return call.purpose == "compaction"; });
  BOOST_TEST(compaction_calls == record.context.compactions);
}

BOOST_AUTO_TEST_CASE(the_request_after_a_compaction_is_smaller_and_starts_from_the_summary) {
  run_loop();
  const std::vector<ReceivedRequest> received = model_server.server.requests();
  std::size_t summary = 0;
  while (summary < received.size() && received[summary].body.find(k_summary_marker) == std::string::npos) ++summary;
  BOOST_REQUIRE(summary > 0);
  BOOST_REQUIRE(summary + 1 < received.size());
  const std::string& before = received[summary - 1].body;
  const std::string& after = received[summary + 1].body;
  BOOST_TEST(after.size() * 2 < before.size(), "after " << after.size() << " bytes, before " << before.size());
  BOOST_TEST(after.find("I read big_0.txt to big_4.txt over and over") != std::string::npos);
  BOOST_TEST(after.find("Read the files until you are done.") != std::string::npos);  // the task, verbatim
  const ContextEvent* compacted = nullptr;
  for (const ContextEvent& event : record.context.events) {
    if (event.kind == "compacted" && !compacted) compacted = &event;
  }
  BOOST_REQUIRE(compacted != nullptr);
  BOOST_TEST(compacted->tokens_after < compacted->tokens_before);
}

BOOST_AUTO_TEST_CASE(pruned_results_become_a_stub_that_says_how_to_read_them_again) {
  run_loop();
  const std::vector<ReceivedRequest> received = model_server.server.requests();
  bool stub_seen = false;
  for (const ReceivedRequest& one : received) {
    if (one.body.find("[agent-run pruned this tool result") == std::string::npos) continue;
    stub_seen = true;
    BOOST_TEST(one.body.find("call read_file with {\\\"path\\\":\\\"big_") != std::string::npos);
    break;
  }
  BOOST_TEST(stub_seen);
}

BOOST_AUTO_TEST_CASE(a_compaction_that_fails_falls_back_to_pruning_and_ends_the_attempt_cleanly_at_the_window) {
  model_server.summaries_fail = true;
  const std::vector<Json> lines = run_loop();
  BOOST_REQUIRE(record.stop_reason.has_value());
  BOOST_TEST(to_string(*record.stop_reason) == "model.context_window");
  BOOST_TEST(record.context.compactions == 0);
  BOOST_TEST(record.context.failed_compactions >= 1);
  BOOST_TEST(largest_request() < k_window);  // it stopped before sending what would not fit

  const std::vector<std::string> kinds = context_kinds(lines);
  BOOST_TEST(std::count(kinds.begin(), kinds.end(), "compaction_failed") == record.context.failed_compactions);
  BOOST_TEST(std::count(kinds.begin(), kinds.end(), "pruned_hard") >= 1);
  BOOST_REQUIRE(!kinds.empty());
  BOOST_TEST(kinds.back() == "gave_up");
  BOOST_REQUIRE(!lines.empty());
  BOOST_TEST(lines.back().find("type")->as_string() == "stop");
  BOOST_TEST(lines.back().find("stop")->as_string() == "model.context_window");
  for (const ContextEvent& event : record.context.events) {
    if (event.kind == "compaction_failed") BOOST_TEST(event.message == "the model answered with no summary");
  }
}

BOOST_AUTO_TEST_CASE(a_summary_that_leaves_the_conversation_too_big_counts_as_a_failed_compaction) {
  model_server.summary = std::string(60000, 'x');  // 15,000 tokens: the whole window
  run_loop();
  BOOST_REQUIRE(record.stop_reason.has_value());
  BOOST_TEST(to_string(*record.stop_reason) == "model.context_window");
  BOOST_TEST(record.context.compactions == 0);
  BOOST_TEST(record.context.failed_compactions >= 1);
  BOOST_TEST(largest_request() < k_window);
  for (const ContextEvent& event : record.context.events) {
    if (event.kind == "compaction_failed") {
      BOOST_TEST(event.message.find("the summary left the conversation too big") == 0u, event.message);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
