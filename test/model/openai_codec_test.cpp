#include "model/openai_api.h"
#include "model/stream_decoding.h"
#include "support/replay_server.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;
using namespace agent_run::test;

namespace {

ModelTurn decode_fixture(const std::string& name, OpenAiStreamDecoder& decoder) {
  return turn_of(decode_stream(decoder, model_fixture(name)));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(openai_request)

BOOST_AUTO_TEST_CASE(the_body_maps_calls_results_and_images_and_asks_for_usage) {
  Conversation conversation{"You are a coding agent.", {}};
  conversation.messages.push_back(Message{Role::user, "Fix the bug.", {}, {}, {}});
  Message assistant{Role::assistant, "", {}, {}, {}};
  assistant.thinking.push_back(ThinkingBlock{"never sent back", "", ""});
  assistant.tool_calls.push_back(ToolCall{"call_1", "read_file", parse_json(R"({"path":"main.c"})").value()});
  assistant.tool_calls.push_back(ToolCall{"call_2", "screenshot", Json::object()});
  conversation.messages.push_back(assistant);
  Message results{Role::user, "", {}, {}, {}};
  results.tool_results.push_back(ToolResult{"call_1", "int main;", false, {}});
  results.tool_results.push_back(ToolResult{"call_2", "", false, {ImageBlock{"image/png", "iVBORw0K"}}});
  conversation.messages.push_back(results);
  std::vector<ToolSchema> tools = {ToolSchema{"read_file", "Reads a file", parse_json(R"({"type":"object"})").value()}};
  Json body = openai_request_body(conversation, tools, RequestSettings{"gpt-4o", std::nullopt, std::nullopt});
  BOOST_TEST(
      body.dump() ==
      R"({"model":"gpt-4o","messages":[{"role":"system","content":"You are a coding agent."},)"
      R"({"role":"user","content":"Fix the bug."},)"
      R"({"role":"assistant","content":null,"tool_calls":[)"
      R"({"id":"call_1","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"main.c\"}"}},)"
      R"({"id":"call_2","type":"function","function":{"name":"screenshot","arguments":"{}"}}]},)"
      R"({"role":"tool","tool_call_id":"call_1","content":"int main;"},)"
      R"j({"role":"tool","tool_call_id":"call_2","content":"(no output)"},)j"
      R"({"role":"user","content":[{"type":"text","text":"Images returned by tool call call_2:"},)"
      R"({"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0K"}}]}],)"
      R"("tools":[{"type":"function","function":{"name":"read_file","description":"Reads a file","parameters":{"type":"object"}}}],)"
      R"("stream":true,"stream_options":{"include_usage":true}})");
}

BOOST_AUTO_TEST_CASE(limits_are_sent_only_when_set_and_the_key_only_when_there_is_one) {
  Conversation conversation{"", {Message{Role::user, "Hi", {}, {}, {}}}};
  Json body = openai_request_body(conversation, {}, RequestSettings{"llama3", 512, 0.0});
  BOOST_TEST(body.find("max_completion_tokens")->as_int() == 512);
  BOOST_TEST(body.find("temperature")->as_double() == 0.0);
  BOOST_TEST(body.find("tools") == nullptr);
  BOOST_TEST(body.find("reasoning_effort") == nullptr);
  RequestSettings reasoning{"o3-mini", std::nullopt, std::nullopt};
  reasoning.reasoning_effort = "high";
  BOOST_TEST(openai_request_body(conversation, {}, reasoning).get_string("reasoning_effort") == "high");
  auto keyless = make_openai_api(ApiEndpoint{"http://127.0.0.1:11434/v1", ""}, RequestSettings{"llama3", {}, {}});
  HttpRequest request = keyless->build_request(conversation, {});
  BOOST_TEST(request.url == "http://127.0.0.1:11434/v1/chat/completions");
  for (const HttpHeader& header : request.headers) BOOST_TEST(header.name != "authorization");
  auto keyed = make_openai_api(ApiEndpoint{"https://api.openai.com/v1", "sk-test"}, RequestSettings{"gpt-4o", {}, {}});
  bool bearer = false;
  for (const HttpHeader& header : keyed->build_request(conversation, {}).headers) {
    bearer = bearer || (header.name == "authorization" && header.value == "Bearer sk-test");
  }
  BOOST_TEST(bearer);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(openai_stream)

BOOST_AUTO_TEST_CASE(a_text_reply_reads_the_usage_only_chunk_before_done) {
  OpenAiStreamDecoder decoder;
  ModelTurn turn = decode_fixture("openai_text.sse", decoder);
  BOOST_TEST(turn.message.text == "The tests pass now.");
  BOOST_TEST((turn.stop_reason == StopReason::end_turn));
  BOOST_TEST(turn.usage.input_tokens == 2130 - 1920);  // prompt_tokens includes the cached ones
  BOOST_TEST(turn.usage.cache_read_input_tokens == 1920);
  BOOST_TEST(turn.usage.output_tokens == 9);
  BOOST_TEST(decoder.response_model() == "gpt-4o-2024-08-06");
}

BOOST_AUTO_TEST_CASE(a_tool_call_streamed_in_pieces_with_reasoning_tokens) {
  OpenAiStreamDecoder decoder;
  ModelTurn turn = decode_fixture("openai_tool_call.sse", decoder);
  BOOST_TEST((turn.stop_reason == StopReason::tool_use));
  BOOST_REQUIRE(turn.message.tool_calls.size() == 1u);
  BOOST_TEST(turn.message.tool_calls[0].id == "call_OurReadConfig0002abcd");
  BOOST_TEST(turn.message.tool_calls[0].input.dump() == R"({"path":"src/config.py"})");
  BOOST_TEST(turn.usage.input_tokens == 426);
  BOOST_TEST(turn.usage.cache_read_input_tokens == 1024);
  BOOST_TEST(turn.usage.output_tokens == 91);
  BOOST_TEST(turn.usage.reasoning_tokens == 64);
}

BOOST_AUTO_TEST_CASE(parallel_tool_calls_are_keyed_by_index) {
  OpenAiStreamDecoder decoder;
  ModelTurn turn = decode_fixture("openai_parallel_tools.sse", decoder);
  BOOST_REQUIRE(turn.message.tool_calls.size() == 2u);
  BOOST_TEST(turn.message.tool_calls[0].id == "call_OurGrepSrc0003aaaa");
  BOOST_TEST(turn.message.tool_calls[0].input.dump() == R"({"pattern":"parse_config","path":"src"})");
  BOOST_TEST(turn.message.tool_calls[1].id == "call_OurGrepTests0003bbb");
  BOOST_TEST(turn.message.tool_calls[1].input.dump() == R"({"pattern":"parse_config","path":"tests"})");
}

BOOST_AUTO_TEST_CASE(a_length_stop_mid_call_reports_the_call_and_does_not_return_it) {
  OpenAiStreamDecoder decoder;
  ModelTurn turn = decode_fixture("openai_max_tokens_mid_call.sse", decoder);
  BOOST_TEST((turn.stop_reason == StopReason::max_tokens));
  BOOST_TEST(turn.message.tool_calls.empty());
  BOOST_TEST(turn.truncated_call == "write_file");
}

BOOST_AUTO_TEST_CASE(a_refusal_and_a_content_filter_stop_are_refusals) {
  OpenAiStreamDecoder refused;
  ModelTurn turn = turn_of(decode_stream(
      refused,
      "data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"refusal\":\"I can't help with "
      "that.\"},\"finish_reason\":null}]}\n\n"
      "data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"));
  BOOST_TEST((turn.stop_reason == StopReason::refusal));
  BOOST_TEST(turn.message.text == "I can't help with that.");
  OpenAiStreamDecoder filtered;
  BOOST_TEST((turn_of(decode_stream(filtered,
                                    "data: "
                                    "{\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"content_"
                                    "filter\"}]}\n\ndata: [DONE]\n\n"))
                  .stop_reason == StopReason::refusal));
}

BOOST_AUTO_TEST_CASE(reasoning_text_from_compatible_servers_is_kept_as_thinking) {
  OpenAiStreamDecoder decoder;
  ModelTurn turn =
      turn_of(decode_stream(decoder,
                            "data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\"Think "
                            "first.\"},\"finish_reason\":null}]}\n\n"
                            "data: "
                            "{\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Done.\"},\"finish_"
                            "reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"));
  BOOST_REQUIRE(turn.message.thinking.size() == 1u);
  BOOST_TEST(turn.message.thinking[0].thinking == "Think first.");
  BOOST_TEST(turn.message.text == "Done.");
}

BOOST_AUTO_TEST_CASE(an_error_object_mid_stream_fails_the_try) {
  OpenAiStreamDecoder decoder;
  ApiFailure failure = failure_of(decode_stream(
      decoder,
      "data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"},\"finish_reason\":null}]}\n\n"
      "data: {\"error\":{\"message\":\"The server had an error while processing your "
      "request.\",\"type\":\"server_error\",\"param\":null,\"code\":null}}\n\n"));
  BOOST_TEST(failure.error_type == "server_error");
  BOOST_TEST((failure.retry == Retry::yes));
}

BOOST_AUTO_TEST_CASE(a_stream_without_done_or_finish_reason_is_incomplete_but_a_finished_one_is_accepted) {
  OpenAiStreamDecoder cut;
  ApiFailure failure = failure_of(decode_stream(
      cut,
      "data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"},\"finish_reason\":null}]}\n\n"));
  BOOST_TEST(failure.error_type == "stream.incomplete");
  OpenAiStreamDecoder finished;
  ModelTurn turn = turn_of(decode_stream(
      finished,
      "data: "
      "{\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hello\"},\"finish_reason\":\"stop\"}]}\n\n"));
  BOOST_TEST(turn.message.text == "Hello");
  BOOST_TEST(!finished.usage_reported());
}

BOOST_AUTO_TEST_CASE(malformed_json_in_a_chunk_fails_the_try) {
  OpenAiStreamDecoder decoder;
  ApiFailure failure = failure_of(decode_stream(decoder, "data: {\"id\":\"c\",\"choices\":[{\"index\":0,\n\n"));
  BOOST_TEST(failure.error_type == "stream.malformed");
}

BOOST_AUTO_TEST_CASE(error_bodies_give_type_code_and_message) {
  ApiErrorBody error = parse_openai_error(
      R"({"error":{"message":"You exceeded your current quota.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}})");
  BOOST_TEST(error.type == "insufficient_quota");
  BOOST_TEST(error.code == "insufficient_quota");
  BOOST_TEST(parse_openai_error(R"({"error":"model 'llama9' not found"})").message == "model 'llama9' not found");
}

BOOST_AUTO_TEST_SUITE_END()
