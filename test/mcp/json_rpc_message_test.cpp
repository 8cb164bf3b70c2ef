#include "mcp/json_rpc_message.h"
#include "mcp/message_lines.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;

namespace {

JsonRpcMessage read(const std::string& text) {
  auto value = parse_json(text);
  BOOST_REQUIRE(value.has_value());
  auto message = read_message(*value);
  BOOST_REQUIRE_MESSAGE(message.has_value(), (message ? std::string() : message.error().message));
  return *message;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(json_rpc_message)

BOOST_AUTO_TEST_CASE(messages_are_told_apart_by_their_members_in_any_key_order) {
  BOOST_TEST((read(R"({"result":{},"jsonrpc":"2.0","id":3})").kind == MessageKind::result));
  BOOST_TEST((read(R"({"method":"roots/list","jsonrpc":"2.0","id":0})").kind == MessageKind::request));
  BOOST_TEST((read(R"({"method":"notifications/message","jsonrpc":"2.0"})").kind == MessageKind::notification));
  JsonRpcMessage error = read(R"({"jsonrpc":"2.0","id":"a","error":{"code":-32601,"message":"no"}})");
  BOOST_TEST((error.kind == MessageKind::error));
  BOOST_TEST(error.error_code == -32601);
  BOOST_TEST(describe_error(error) == "error -32601: no");
}

BOOST_AUTO_TEST_CASE(a_request_id_is_kept_as_sent_number_or_string) {
  BOOST_TEST(read(R"({"jsonrpc":"2.0","id":"s-1","method":"ping"})").id.as_string() == "s-1");
  BOOST_TEST(read(R"({"jsonrpc":"2.0","id":0,"method":"ping"})").id.as_int() == 0);
}

BOOST_AUTO_TEST_CASE(shapes_that_are_no_message_are_errors) {
  for (const char* text : {R"([1])", R"({"jsonrpc":"2.0"})", R"({"id":1,"error":{"message":"no code"}})",
                           R"({"id":{"x":1},"method":"m"})", R"({"method":7})"}) {
    auto value = parse_json(text);
    BOOST_REQUIRE(value.has_value());
    BOOST_TEST(!read_message(*value).has_value(), text);
  }
}

BOOST_AUTO_TEST_CASE(a_batch_is_split_into_its_messages) {
  auto messages = messages_in(R"([{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","method":"b"}])");
  BOOST_REQUIRE(messages.has_value());
  BOOST_TEST(messages->size() == 2u);
  BOOST_TEST(!messages_in("not json").has_value());
  BOOST_TEST(!messages_in("[]").has_value());
  BOOST_TEST(!messages_in("42").has_value());
}

BOOST_AUTO_TEST_CASE(built_messages_have_the_members_the_protocol_names) {
  BOOST_TEST(request_message(4, "tools/list", nullptr).dump() == R"({"jsonrpc":"2.0","id":4,"method":"tools/list"})");
  BOOST_TEST(notification_message("notifications/initialized", nullptr).dump() ==
             R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  BOOST_TEST(error_message(Json("x"), -32601, "nope").dump() ==
             R"({"jsonrpc":"2.0","id":"x","error":{"code":-32601,"message":"nope"}})");
}

BOOST_AUTO_TEST_CASE(a_message_line_holds_no_newline_but_the_last) {
  std::string line = message_line(Json::object().set("text", "two\nlines"));
  BOOST_TEST(line == "{\"text\":\"two\\nlines\"}\n");
}

BOOST_AUTO_TEST_CASE(lines_are_taken_out_as_they_complete_without_carriage_returns) {
  MessageLines lines(1024);
  lines.append("{\"a\":1}\r\n{\"b\"");
  auto first = lines.next();
  BOOST_REQUIRE(first.has_value());
  BOOST_TEST(**first == "{\"a\":1}");
  BOOST_TEST(!lines.next().has_value());
  lines.append(":2}\n");
  BOOST_TEST(**lines.next() == "{\"b\":2}");
}

BOOST_AUTO_TEST_CASE(a_line_over_the_cap_is_an_error_even_before_it_ends) {
  MessageLines lines(10);
  lines.append(std::string(11, 'x'));
  auto next = lines.next();
  BOOST_REQUIRE(next.has_value());
  BOOST_TEST(!next->has_value());
  BOOST_TEST(next->error().message == "a line of more than 10 bytes on its stdout");
}

BOOST_AUTO_TEST_SUITE_END()
