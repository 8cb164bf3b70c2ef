#include "base/json.h"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

using namespace agent_run;

namespace {

/// The error message of parsing `text`, which must fail.
std::string parse_error(std::string_view text) {
  auto parsed = parse_json(text);
  BOOST_REQUIRE_MESSAGE(!parsed.has_value(), "parsed: " << std::string(text));
  return parsed.error().message;
}

Json parsed(std::string_view text) {
  auto json = parse_json(text);
  BOOST_REQUIRE_MESSAGE(json.has_value(), (json ? "" : json.error().message));
  return *json;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(json)

BOOST_AUTO_TEST_CASE(a_document_reads_back_to_the_same_value_and_text) {
  const std::string text =
      R"({"name":"agent-run","turns":3,"cost":0.25,"ok":true,"none":null,"tags":["a","b",[]],"nested":{"x":{}}})";
  Json json = parsed(text);
  BOOST_TEST(json.dump() == text);
  BOOST_TEST((parsed(json.dump()) == json));
  BOOST_TEST(json.find("turns")->as_int() == 3);
  BOOST_TEST(json.find("cost")->as_double() == 0.25);
  BOOST_TEST(json.find("ok")->as_bool());
  BOOST_TEST(json.find("none")->is_null());
  BOOST_TEST(json.find("tags")->as_array().size() == 3u);
  BOOST_TEST(json.find("nested")->find("x")->is_object());
  BOOST_TEST(json.find("missing") == nullptr);
  BOOST_TEST(json.get_string("name") == "agent-run");
  BOOST_TEST(json.get_string("turns", "fallback") == "fallback");  // not a string
}

BOOST_AUTO_TEST_CASE(objects_keep_their_keys_in_the_order_they_were_written) {
  Json built = Json::object().set("zeta", 1).set("alpha", 2).set("mid", 3);
  BOOST_TEST(built.dump() == R"({"zeta":1,"alpha":2,"mid":3})");
  built.set("alpha", "replaced");  // in place, not moved to the end
  BOOST_TEST(built.dump() == R"({"zeta":1,"alpha":"replaced","mid":3})");
  BOOST_TEST(parsed(R"({"b":1,"a":2,"c":3})").dump() == R"({"b":1,"a":2,"c":3})");
  Json null_then_set;
  null_then_set.set("k", 1);  // a null value becomes an object
  BOOST_TEST(null_then_set.dump() == R"({"k":1})");
}

BOOST_AUTO_TEST_CASE(strings_are_escaped_so_that_they_read_back_unchanged) {
  const std::string text = std::string("quote \" backslash \\ newline \n return \r tab \t backspace \b feed \f ") +
                           "bell \x07 delete \x7f slash / caf\xC3\xA9";
  Json json(text);
  BOOST_TEST(
      json.dump() ==
      R"("quote \" backslash \\ newline \n return \r tab \t backspace \b feed \f bell \u0007 delete \u007f slash / café")");
  BOOST_TEST(parsed(json.dump()).as_string() == text);
  std::string out;
  append_json_string(out, "a\"b");
  BOOST_TEST(out == R"("a\"b")");
}

BOOST_AUTO_TEST_CASE(unicode_escapes_become_utf8_and_what_cannot_be_utf8_becomes_a_replacement) {
  BOOST_TEST(parsed(R"("caf\u00e9 \u20ac \/")").as_string() == "caf\xC3\xA9 \xE2\x82\xAC /");
  BOOST_TEST(parsed(R"("\ud83d\ude00")").as_string() == "\xF0\x9F\x98\x80");  // a surrogate pair: one emoji
  BOOST_TEST(parsed(R"("\ud83d")").as_string() == "\xEF\xBF\xBD");            // a lone surrogate
  BOOST_TEST(parsed(R"("\ude00x")").as_string() == "\xEF\xBF\xBDx");
  BOOST_TEST(Json(std::string("bad \xFF byte")).dump() == "\"bad \xEF\xBF\xBD byte\"");  // output always parses
  BOOST_TEST(parsed("\"raw \xFF\"").as_string() == "raw \xEF\xBF\xBD");
}

BOOST_AUTO_TEST_CASE(integers_stay_exact_and_other_numbers_are_doubles) {
  const std::int64_t max = std::numeric_limits<std::int64_t>::max();
  const std::int64_t min = std::numeric_limits<std::int64_t>::min();
  BOOST_TEST(parsed(std::to_string(max)).as_int() == max);
  BOOST_TEST(parsed(std::to_string(min)).as_int() == min);
  BOOST_TEST(parsed("-17").is_integer());
  BOOST_TEST(Json(max).dump() == "9223372036854775807");
  Json too_big = parsed("9223372036854775808");  // past int64: read as a double, not wrapped
  BOOST_TEST(!too_big.is_integer());
  BOOST_TEST(too_big.as_double() == 9223372036854775808.0);
  BOOST_TEST(parsed("1e3").as_double() == 1000.0);
  BOOST_TEST(!parsed("1e3").is_integer());
  BOOST_TEST(parsed("-2.5E-3").as_double() == -0.0025);
  BOOST_TEST(parsed("2.75").as_int() == 2);  // as_int of a double truncates
  BOOST_TEST(parsed("8.9e82").as_int() == max);  // and saturates past int64, where a cast is undefined
  BOOST_TEST(parsed("-1e300").as_int() == min);
  BOOST_TEST(parsed("7").as_double() == 7.0);
  BOOST_TEST(Json(0.1).dump() == "0.1");  // the shortest text that reads back the same
  BOOST_TEST(parsed(Json(0.1).dump()).as_double() == 0.1);
  BOOST_TEST(Json(1.0).dump() == "1");                // a whole double is written as an integer...
  BOOST_TEST(parsed(Json(1.0).dump()).is_integer());  // ...and reads back as one of the same value
  BOOST_TEST(parsed("-0e-1").dump() == "0");  // negative zero is written as 0, so a second write is the same
  BOOST_TEST(parsed(parsed("-0.0").dump()).dump() == "0");
  BOOST_TEST(Json(std::nan("")).dump() == "null");    // JSON has no NaN or infinity
  BOOST_TEST(Json(std::numeric_limits<double>::infinity()).dump() == "null");
}

BOOST_AUTO_TEST_CASE(invalid_input_is_an_error_naming_the_offset_and_the_problem) {
  BOOST_TEST(parse_error("") == "invalid JSON at offset 0: unexpected end of input");
  BOOST_TEST(parse_error("{\"a\": 1") == "invalid JSON at offset 7: expected ',' or '}' in an object");
  BOOST_TEST(parse_error("[1, 2,]") == "invalid JSON at offset 6: unexpected character ']'");
  BOOST_TEST(parse_error("{\"a\" 1}") == "invalid JSON at offset 5: expected ':' after a key");
  BOOST_TEST(parse_error("{1: 2}") == "invalid JSON at offset 1: expected a string key");
  BOOST_TEST(parse_error("tru") == "invalid JSON at offset 0: unexpected character 't'");
  BOOST_TEST(parse_error("\"open") == "invalid JSON at offset 5: unterminated string");
  BOOST_TEST(parse_error("\"a\nb\"") == "invalid JSON at offset 3: unescaped control character in a string");
  BOOST_TEST(parse_error(R"("\q")") == "invalid JSON at offset 3: invalid escape '\\q'");
  BOOST_TEST(parse_error(R"("\u12")") == "invalid JSON at offset 3: truncated \\u escape");
  BOOST_TEST(parse_error(R"("\u12zz")") == "invalid JSON at offset 6: invalid \\u escape");
  BOOST_TEST(parse_error("-") == "invalid JSON at offset 1: invalid number '-'");
  BOOST_TEST(parse_error("1 2") == "invalid JSON at offset 2: unexpected text after the JSON value");
  BOOST_TEST(parse_error(std::string(600, '[')).find("nesting deeper than 512") != std::string::npos);
  BOOST_TEST(parse_json(std::string(500, '[') + std::string(500, ']')).has_value());
}

BOOST_AUTO_TEST_CASE(pretty_output_indents_by_two_and_ends_with_a_newline) {
  Json json = Json::object().set("a", Json::array()).set("b", Json(Json::Array{1, "x"})).set("c", Json::object());
  BOOST_TEST(json.dump_pretty() == "{\n  \"a\": [],\n  \"b\": [\n    1,\n    \"x\"\n  ],\n  \"c\": {}\n}\n");
  BOOST_TEST((parsed(json.dump_pretty()) == json));
}

BOOST_AUTO_TEST_SUITE_END()
