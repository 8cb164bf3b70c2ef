#include "mcp/call_result.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;

namespace {

Json json(const std::string& text) {
  auto value = parse_json(text);
  BOOST_REQUIRE(value.has_value());
  return *value;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(call_result)

BOOST_AUTO_TEST_CASE(each_block_type_becomes_its_neutral_kind) {
  McpCallResult result = read_call_result(json(R"({"content":[
    {"type":"text","text":"hi"},
    {"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"},
    {"type":"audio","data":"UklGRg==","mimeType":"audio/wav"},
    {"type":"resource","resource":{"uri":"file:///a.txt","mimeType":"text/plain","text":"inside"}},
    {"type":"resource","resource":{"uri":"file:///b.bin","blob":"AAAA"}},
    {"type":"resource_link","uri":"file:///c","name":"c","title":"The C","description":"a file"}]})"),
                                          CallResultLimits{});
  BOOST_REQUIRE(result.content.size() == 6u);
  BOOST_TEST((result.content[0].kind == McpContentKind::text && result.content[0].text == "hi"));
  BOOST_TEST((result.content[1].kind == McpContentKind::image && result.content[1].data == "iVBORw0KGgo="));
  BOOST_TEST((result.content[2].kind == McpContentKind::audio && result.content[2].dropped));
  BOOST_TEST((result.content[3].kind == McpContentKind::resource && result.content[3].text == "inside"));
  BOOST_TEST(
      (result.content[4].dropped && result.content[4].data_bytes == 3u && result.content[4].uri == "file:///b.bin"));
  BOOST_TEST((result.content[5].kind == McpContentKind::resource_link && result.content[5].name == "The C"));
  BOOST_TEST(!result.truncated);  // binary blocks that are only noted are no cut
  BOOST_TEST(!result.is_error);
}

BOOST_AUTO_TEST_CASE(is_error_marks_a_tools_own_failure) {
  McpCallResult result = read_call_result(
      json(R"({"content":[{"type":"text","text":"MCP error -32602: Tool x not found"}],"isError":true})"),
      CallResultLimits{});
  BOOST_TEST(result.is_error);
  BOOST_TEST(result.error.empty());
}

BOOST_AUTO_TEST_CASE(text_beyond_the_cap_is_cut_and_marked) {
  CallResultLimits limits;
  limits.max_text_bytes = 100;
  Json big = Json::object().set("content",
                                Json(Json::Array{Json::object().set("type", "text").set("text", std::string(500, 'a')),
                                                 Json::object().set("type", "text").set("text", "after")}));
  McpCallResult result = read_call_result(big, limits);
  BOOST_TEST(result.truncated);
  BOOST_TEST(result.content[0].text.size() < 200u);
  BOOST_TEST(result.content[1].text.find("after") == std::string::npos);
  BOOST_TEST(result.result_bytes > 500u);
}

BOOST_AUTO_TEST_CASE(an_image_over_the_cap_is_dropped_but_its_size_kept) {
  CallResultLimits limits;
  limits.max_image_bytes = 10;
  Json image = json(R"({"content":[{"type":"image","data":"AAAAAAAAAAAAAAAAAAAA","mimeType":"image/png"}]})");
  McpCallResult result = read_call_result(image, limits);
  BOOST_TEST(result.content[0].dropped);
  BOOST_TEST(result.content[0].data.empty());
  BOOST_TEST(result.content[0].data_bytes == 15u);
  BOOST_TEST(result.truncated);
}

BOOST_AUTO_TEST_CASE(structured_content_is_kept_unless_it_is_too_big) {
  McpCallResult kept = read_call_result(json(R"({"content":[],"structuredContent":{"t":33}})"), CallResultLimits{});
  BOOST_REQUIRE(kept.structured.has_value());
  BOOST_TEST(kept.structured->dump() == R"({"t":33})");
  CallResultLimits small;
  small.max_text_bytes = 4;
  McpCallResult dropped = read_call_result(json(R"({"content":[],"structuredContent":{"t":33}})"), small);
  BOOST_TEST(!dropped.structured.has_value());
  BOOST_TEST(dropped.truncated);
}

BOOST_AUTO_TEST_CASE(an_unknown_block_type_is_kept_as_a_note) {
  McpCallResult result = read_call_result(json(R"({"content":[{"type":"hologram","x":1}]})"), CallResultLimits{});
  BOOST_REQUIRE(result.content.size() == 1u);
  BOOST_TEST(result.content[0].text.find("hologram") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(call_result_text_for_readers)

BOOST_AUTO_TEST_CASE(each_block_reads_as_a_line_or_a_note) {
  McpCallResult result = read_call_result(json(R"({"content":[
    {"type":"text","text":"Here:"},
    {"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"},
    {"type":"resource","resource":{"uri":"file:///a.txt","mimeType":"text/plain","text":"inside"}},
    {"type":"resource","resource":{"uri":"file:///b.bin","blob":"AAAA"}},
    {"type":"resource_link","uri":"demo://r/1","name":"One","mimeType":"text/plain","description":"a file"}]})"),
                                          CallResultLimits{});
  BOOST_TEST(call_result_text(result) ==
             "Here:\n[image (image/png), 8 bytes]\n[resource file:///a.txt (text/plain)]\ninside\n"
             "[resource file:///b.bin, 3 bytes of binary data: not shown]\n"
             "[resource link: One <demo://r/1> (text/plain): a file]");
}

BOOST_AUTO_TEST_CASE(structured_content_is_shown_only_without_text) {
  BOOST_TEST(call_result_text(read_call_result(json(R"({"content":[],"structuredContent":{"t":1}})"),
                                               CallResultLimits{})) == R"({"t":1})");
  BOOST_TEST(call_result_text(read_call_result(
                 json(R"({"content":[{"type":"text","text":"{\"t\":1}"}],"structuredContent":{"t":1}})"),
                 CallResultLimits{})) == R"({"t":1})");
}

BOOST_AUTO_TEST_CASE(a_failed_call_says_why_and_a_cut_says_so) {
  BOOST_TEST(call_result_text(failed_call("the MCP server is gone: it exited with code 7")) ==
             "the MCP call failed: the MCP server is gone: it exited with code 7");
  CallResultLimits small;
  small.max_text_bytes = 3;
  std::string cut =
      call_result_text(read_call_result(json(R"({"content":[{"type":"text","text":"abcdefgh"}]})"), small));
  BOOST_TEST(cut.find("was cut") != std::string::npos, cut);
}

BOOST_AUTO_TEST_SUITE_END()
