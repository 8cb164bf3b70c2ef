#include "net/sse_parser.h"

#include <boost/test/unit_test.hpp>

#include <vector>

using namespace agent_run;

namespace {

/// Feeds `body` line by line, as the transport hands it over, and collects the events.
std::vector<SseEvent> parse(const std::string& body, SseParser& parser) {
  std::vector<SseEvent> events;
  std::size_t start = 0;
  while (start < body.size()) {
    std::size_t end = body.find('\n', start);
    if (end == std::string::npos) end = body.size();
    if (auto event = parser.feed_line(std::string_view(body).substr(start, end - start))) events.push_back(*event);
    start = end + 1;
  }
  return events;
}

std::vector<SseEvent> parse(const std::string& body) {
  SseParser parser;
  return parse(body, parser);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sse_parser)

BOOST_AUTO_TEST_CASE(named_events_are_dispatched_at_each_blank_line) {
  auto events = parse("event: message_start\ndata: {\"a\":1}\n\nevent: ping\ndata: {\"type\": \"ping\"}\n\n");
  BOOST_REQUIRE(events.size() == 2u);
  BOOST_TEST(events[0].event == "message_start");
  BOOST_TEST(events[0].data == "{\"a\":1}");
  BOOST_TEST(events[1].event == "ping");
}

BOOST_AUTO_TEST_CASE(data_only_events_are_messages_and_crlf_is_accepted) {
  auto events = parse("data: {\"id\":\"x\"}\r\n\r\ndata: [DONE]\r\n\r\n");
  BOOST_REQUIRE(events.size() == 2u);
  BOOST_TEST(events[0].event == "message");
  BOOST_TEST(events[0].data == "{\"id\":\"x\"}");
  BOOST_TEST(events[1].data == "[DONE]");
}

BOOST_AUTO_TEST_CASE(comments_are_keep_alives_and_dispatch_nothing) {
  auto events = parse(": keep-alive\n\n:\n\ndata: x\n\n");
  BOOST_REQUIRE(events.size() == 1u);
  BOOST_TEST(events[0].data == "x");
}

BOOST_AUTO_TEST_CASE(several_data_lines_join_with_newlines_and_only_one_space_is_stripped) {
  auto events = parse("data:first\ndata:  second\ndata\n\n");
  BOOST_REQUIRE(events.size() == 1u);
  BOOST_TEST(events[0].data == "first\n second\n");
}

BOOST_AUTO_TEST_CASE(an_event_without_its_blank_line_stays_pending_and_is_not_dispatched) {
  SseParser parser;
  auto events = parse("event: message_stop\ndata: {\"type\":\"message_stop\"}\n", parser);
  BOOST_TEST(events.empty());
  BOOST_TEST(parser.has_pending());
}

BOOST_AUTO_TEST_CASE(a_byte_order_mark_ids_and_unknown_fields_are_handled) {
  auto events = parse(
      "\xEF\xBB\xBF"
      "id: 7\nretry: 10\nfoo: bar\ndata: y\n\n");
  BOOST_REQUIRE(events.size() == 1u);
  BOOST_TEST(events[0].id == "7");
  BOOST_TEST(events[0].data == "y");
}

BOOST_AUTO_TEST_CASE(the_last_event_id_is_kept_across_events_and_set_by_one_without_data) {
  SseParser parser;
  auto events = parse("id: e1\nretry: 500\ndata: \n\ndata: {}\n\nid: e3\n\n", parser);
  BOOST_REQUIRE(events.size() == 2u);
  BOOST_TEST(events[0].data.empty());  // a priming event: an id and empty data
  BOOST_TEST(parser.last_event_id() == "e3");
  BOOST_REQUIRE(parser.retry().has_value());
  BOOST_TEST(parser.retry()->count() == 500);
}

BOOST_AUTO_TEST_CASE(an_id_in_an_event_the_stream_cut_off_does_not_count) {
  SseParser parser;
  parse("id: e1\ndata: a\n\nid: e2\ndata: b\n", parser);
  BOOST_TEST(parser.last_event_id() == "e1");
}

BOOST_AUTO_TEST_CASE(a_retry_that_is_not_digits_is_ignored) {
  SseParser parser;
  parse("retry: 300\n\nretry: soon\n\nretry: -1\n\n", parser);
  BOOST_TEST(parser.retry()->count() == 300);
}

BOOST_AUTO_TEST_SUITE_END()
