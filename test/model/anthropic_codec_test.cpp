#include "model/anthropic_api.h"
#include "model/stream_decoding.h"
#include "support/replay_server.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;
using namespace agent_run::test;

namespace {

ModelTurn decode_fixture(const std::string& name, AnthropicStreamDecoder& decoder) {
  return turn_of(decode_stream(decoder, model_fixture(name)));
}

/// A conversation with every kind of block: prompt, thinking, text, a call, results with an error and an image.
Conversation full_conversation() {
  Conversation conversation{"You are a coding agent.", {}};
  conversation.messages.push_back(Message{Role::user, "Fix the bug.", {}, {}, {}});
  Message assistant{Role::assistant, "Reading it.", {}, {}, {}};
  assistant.thinking.push_back(ThinkingBlock{"Look at main.", "sig-1", ""});
  assistant.tool_calls.push_back(ToolCall{"toolu_1", "read_file", parse_json(R"({"path":"main.c"})").value()});
  assistant.tool_calls.push_back(ToolCall{"toolu_2", "screenshot", Json::object()});
  conversation.messages.push_back(assistant);
  Message results{Role::user, "", {}, {}, {}};
  results.tool_results.push_back(ToolResult{"toolu_1", "no such file", true, {}});
  results.tool_results.push_back(ToolResult{"toolu_2", "the screen", false, {ImageBlock{"image/png", "iVBORw0K"}}});
  conversation.messages.push_back(results);
  return conversation;
}

std::vector<ToolSchema> one_tool() {
  return {ToolSchema{"read_file", "Reads a file",
                     parse_json(R"({"type":"object","properties":{"path":{"type":"string"}}})").value()}};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(anthropic_request)

BOOST_AUTO_TEST_CASE(the_body_maps_every_block_and_caches_the_prefix_and_the_latest_turn) {
  RequestSettings settings{"claude-sonnet-4-5", std::nullopt, 0.2};
  Json body = anthropic_request_body(full_conversation(), one_tool(), settings);
  BOOST_TEST(
      body.dump() ==
      R"({"model":"claude-sonnet-4-5","max_tokens":8192,"temperature":0.2,)"
      R"("tools":[{"name":"read_file","description":"Reads a file","input_schema":{"type":"object","properties":{"path":{"type":"string"}}}}],)"
      R"("system":[{"type":"text","text":"You are a coding agent.","cache_control":{"type":"ephemeral"}}],)"
      R"("messages":[{"role":"user","content":[{"type":"text","text":"Fix the bug."}]},)"
      R"({"role":"assistant","content":[{"type":"thinking","thinking":"Look at main.","signature":"sig-1"},)"
      R"({"type":"text","text":"Reading it."},)"
      R"({"type":"tool_use","id":"toolu_1","name":"read_file","input":{"path":"main.c"}},)"
      R"({"type":"tool_use","id":"toolu_2","name":"screenshot","input":{}}]},)"
      R"({"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"no such file","is_error":true},)"
      R"({"type":"tool_result","tool_use_id":"toolu_2","content":[{"type":"text","text":"the screen"},)"
      R"({"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0K"}}],)"
      R"("cache_control":{"type":"ephemeral"}}]}],"stream":true})");
}

BOOST_AUTO_TEST_CASE(without_a_system_prompt_the_last_tool_carries_the_prefix_breakpoint) {
  Conversation conversation{"", {Message{Role::user, "Hi", {}, {}, {}}}};
  Json body = anthropic_request_body(conversation, one_tool(), RequestSettings{"claude-haiku-4-5", 1000, std::nullopt});
  BOOST_TEST(body.find("max_tokens")->as_int() == 1000);
  BOOST_TEST(body.find("system") == nullptr);
  BOOST_TEST(body.find("tools")->as_array().back().find("cache_control") != nullptr);
}

BOOST_AUTO_TEST_CASE(a_thinking_budget_asks_for_extended_thinking_and_earlier_thinking_goes_back_signed) {
  RequestSettings settings{"claude-sonnet-4-5", 16000, std::nullopt};
  settings.thinking_budget = 8000;
  Json body = anthropic_request_body(full_conversation(), one_tool(), settings);
  BOOST_TEST(body.find("thinking")->dump() == R"({"type":"enabled","budget_tokens":8000})");
  BOOST_TEST(body.find("max_tokens")->as_int() == 16000);
  BOOST_TEST(
      body.find("messages")->dump().find(R"({"type":"thinking","thinking":"Look at main.","signature":"sig-1"})") !=
      std::string::npos);
  BOOST_TEST(anthropic_request_body(full_conversation(), one_tool(), RequestSettings{"m", 100, std::nullopt})
                 .find("thinking") == nullptr);
}

BOOST_AUTO_TEST_CASE(the_request_carries_the_key_and_version_headers) {
  auto api = make_anthropic_api(ApiEndpoint{"https://example.test/", "sk-ant-test"}, RequestSettings{"m", {}, {}});
  HttpRequest request = api->build_request(Conversation{"", {Message{Role::user, "Hi", {}, {}, {}}}}, {});
  BOOST_TEST(request.url == "https://example.test/v1/messages");
  auto has = [&](const std::string& name, const std::string& value) {
    for (const HttpHeader& header : request.headers) {
      if (header.name == name && header.value == value) return true;
    }
    return false;
  };
  BOOST_TEST(has("x-api-key", "sk-ant-test"));
  BOOST_TEST(has("anthropic-version", "2023-06-01"));
  BOOST_TEST(has("accept", "text/event-stream"));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(anthropic_stream)

BOOST_AUTO_TEST_CASE(a_text_reply_ignores_pings_and_takes_the_final_output_count) {
  AnthropicStreamDecoder decoder;
  ModelTurn turn = decode_fixture("anthropic_text.sse", decoder);
  BOOST_TEST(turn.message.text == "The tests pass now.");
  BOOST_TEST((turn.stop_reason == StopReason::end_turn));
  BOOST_TEST(turn.usage.input_tokens == 31);
  BOOST_TEST(turn.usage.output_tokens == 12);
  BOOST_TEST(decoder.usage_reported());
  BOOST_TEST(decoder.response_model() == "claude-sonnet-4-5-20250929");
}

BOOST_AUTO_TEST_CASE(a_tool_call_streamed_in_pieces_with_padding_and_cache_usage) {
  AnthropicStreamDecoder decoder;
  ModelTurn turn = decode_fixture("anthropic_tool_use.sse", decoder);
  BOOST_TEST(turn.message.text == "I'll read the config loader first.");
  BOOST_TEST((turn.stop_reason == StopReason::tool_use));
  BOOST_REQUIRE(turn.message.tool_calls.size() == 1u);
  BOOST_TEST(turn.message.tool_calls[0].id == "toolu_01ReadConfigAbCdEfGhIjKl");
  BOOST_TEST(turn.message.tool_calls[0].name == "read_file");
  BOOST_TEST(turn.message.tool_calls[0].input.dump() == R"({"path":"src/config.py"})");
  BOOST_TEST(turn.usage.input_tokens == 1207);
  BOOST_TEST(turn.usage.cache_creation_input_tokens == 2048);
  BOOST_TEST(turn.usage.cache_read_input_tokens == 0);
  BOOST_TEST(turn.usage.output_tokens == 74);
}

BOOST_AUTO_TEST_CASE(parallel_tool_calls_keep_their_order_and_inputs) {
  AnthropicStreamDecoder decoder;
  ModelTurn turn = decode_fixture("anthropic_parallel_tools.sse", decoder);
  BOOST_REQUIRE(turn.message.tool_calls.size() == 2u);
  BOOST_TEST(turn.message.tool_calls[0].id == "toolu_01GrepSrcQwErTyUiOpAsDf");
  BOOST_TEST(turn.message.tool_calls[0].input.dump() == R"({"pattern":"parse_config","path":"src"})");
  BOOST_TEST(turn.message.tool_calls[1].input.dump() == R"({"pattern":"parse_config","path":"tests"})");
  BOOST_TEST(turn.usage.cache_read_input_tokens == 3255);
  BOOST_TEST(turn.usage.cache_creation_input_tokens == 310);
  BOOST_TEST(turn.usage.input_tokens == 96);
  BOOST_TEST(turn.usage.output_tokens == 121);
}

BOOST_AUTO_TEST_CASE(thinking_keeps_its_signature_and_a_stream_without_usage_says_so) {
  AnthropicStreamDecoder decoder;
  ModelTurn turn = decode_fixture("anthropic_thinking.sse", decoder);
  BOOST_REQUIRE(turn.message.thinking.size() == 1u);
  BOOST_TEST(turn.message.thinking[0].thinking == "The loop runs to n inclusive,\nso the last index is out of range.");
  BOOST_TEST(turn.message.thinking[0].signature == "EqQBCgIYAhIMsignatureOfOurOwnForTests0123456789abcdef...");
  BOOST_TEST(turn.message.text == "The loop bound is off by one.");
  BOOST_TEST(!decoder.usage_reported());
}

BOOST_AUTO_TEST_CASE(thinking_tokens_are_counted_from_the_thinking_text_when_the_api_does_not_split_them) {
  // 64 bytes of thinking inside 200 output tokens: about 16 tokens of reasoning.
  std::string stream =
      "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"model\":\"m\",\"usage\":"
      "{\"input_tokens\":10,\"output_tokens\":1}}}\n\n"
      "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":"
      "{\"type\":\"thinking\",\"thinking\":\"\"}}\n\n"
      "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":"
      "{\"type\":\"thinking_delta\",\"thinking\":\"" +
      std::string(64, 't') +
      "\"}}\n\n"
      "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},"
      "\"usage\":{\"output_tokens\":200}}\n\n"
      "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
  AnthropicStreamDecoder decoder;
  ModelTurn turn = turn_of(decode_stream(decoder, stream));
  BOOST_TEST(turn.usage.output_tokens == 200);
  BOOST_TEST(turn.usage.reasoning_tokens == 16);
}

BOOST_AUTO_TEST_CASE(a_max_tokens_stop_mid_call_reports_the_call_and_does_not_return_it) {
  AnthropicStreamDecoder decoder;
  ModelTurn turn = decode_fixture("anthropic_max_tokens_mid_call.sse", decoder);
  BOOST_TEST((turn.stop_reason == StopReason::max_tokens));
  BOOST_TEST(turn.message.tool_calls.empty());
  BOOST_TEST(turn.truncated_call == "write_file");
  BOOST_TEST(turn.message.text == "Writing the new module.");
}

BOOST_AUTO_TEST_CASE(refusal_and_context_window_stops_are_mapped) {
  auto stream_stopping = [](const std::string& reason) {
    return "event: message_start\ndata: "
           "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_r\",\"usage\":{\"input_tokens\":5,\"output_tokens\":"
           "1}}}\n\n"
           "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"" +
           reason +
           "\"},\"usage\":{\"output_tokens\":2}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
  };
  AnthropicStreamDecoder refused;
  BOOST_TEST((turn_of(decode_stream(refused, stream_stopping("refusal"))).stop_reason == StopReason::refusal));
  AnthropicStreamDecoder full;
  BOOST_TEST((turn_of(decode_stream(full, stream_stopping("model_context_window_exceeded"))).stop_reason ==
              StopReason::context_window));
  AnthropicStreamDecoder future;
  BOOST_TEST((turn_of(decode_stream(future, stream_stopping("a_reason_from_the_future"))).stop_reason ==
              StopReason::end_turn));
}

BOOST_AUTO_TEST_CASE(an_error_event_after_the_start_fails_the_try_as_retryable) {
  AnthropicStreamDecoder decoder;
  ApiFailure failure = failure_of(decode_stream(decoder,
                                                "event: message_start\ndata: "
                                                "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_x\",\"usage\":{"
                                                "\"input_tokens\":10,\"output_tokens\":1}}}\n\n"
                                                "event: error\ndata: {\"type\": \"error\", \"error\": {\"type\": "
                                                "\"overloaded_error\", \"message\": \"Overloaded\"}}\n\n"));
  BOOST_TEST(failure.error_type == "overloaded_error");
  BOOST_TEST(failure.message == "Overloaded");
  BOOST_TEST((failure.retry == Retry::yes));
}

BOOST_AUTO_TEST_CASE(an_invalid_request_error_event_is_not_retried) {
  AnthropicStreamDecoder decoder;
  ApiFailure failure = failure_of(
      decode_stream(decoder,
                    "event: error\ndata: "
                    "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"bad\"}}\n\n"));
  BOOST_TEST((failure.retry == Retry::no));
}

BOOST_AUTO_TEST_CASE(malformed_json_in_a_chunk_fails_the_try_quoting_it) {
  AnthropicStreamDecoder decoder;
  ApiFailure failure = failure_of(
      decode_stream(decoder,
                    "event: content_block_delta\ndata: {\"type\": \"content_block_delta\",\"index\": 1,\"delta\": "
                    "{\"type\": \"input_json_delta\",\"partial_json\": \"{\\\"location\\\": \\\"San Fra\"}}}\n\n"));
  BOOST_TEST(failure.error_type == "stream.malformed");
  BOOST_TEST(failure.message.find("`content_block_delta` event") != std::string::npos);
  BOOST_TEST((failure.retry == Retry::yes));
}

BOOST_AUTO_TEST_CASE(a_stream_cut_before_message_stop_is_incomplete) {
  std::string cut = model_fixture("anthropic_text.sse");
  cut = cut.substr(0, cut.find("event: message_delta"));
  AnthropicStreamDecoder decoder;
  ApiFailure failure = failure_of(decode_stream(decoder, cut));
  BOOST_TEST(failure.error_type == "stream.incomplete");
  BOOST_TEST((failure.retry == Retry::yes));
}

BOOST_AUTO_TEST_CASE(error_bodies_give_type_message_request_id_and_spend_limit_code) {
  ApiErrorBody error = parse_anthropic_error(
      R"({"type":"error","error":{"type":"rate_limit_error","message":"slow down","details":{"error_code":"enforced_spend_limit_reached"}},"request_id":"req_1"})");
  BOOST_TEST(error.type == "rate_limit_error");
  BOOST_TEST(error.message == "slow down");
  BOOST_TEST(error.code == "enforced_spend_limit_reached");
  BOOST_TEST(error.request_id == "req_1");
  BOOST_TEST(parse_anthropic_error("<html>Bad Gateway</html>").message == "<html>Bad Gateway</html>");
}

BOOST_AUTO_TEST_SUITE_END()
