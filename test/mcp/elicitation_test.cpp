#include "mcp/elicitation.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;

namespace {

Json schema(const std::string& text) {
  auto value = parse_json(text);
  BOOST_REQUIRE(value.has_value());
  return *value;
}

// The form of the conformance suite's elicitation-sep1034-client-defaults scenario.
const char* k_all_defaults = R"({"type":"object","properties":{
  "name":{"type":"string","default":"John Doe"},"age":{"type":"integer","default":30},
  "score":{"type":"number","default":95.5},"status":{"type":"string","enum":["active","inactive"],"default":"active"},
  "verified":{"type":"boolean","default":true}},"required":[]})";

}  // namespace

BOOST_AUTO_TEST_SUITE(elicitation)

BOOST_AUTO_TEST_CASE(defaults_fill_a_form_whose_required_fields_all_have_one) {
  auto content = form_defaults(schema(k_all_defaults));
  BOOST_REQUIRE(content.has_value());
  BOOST_TEST(content->dump() == R"({"name":"John Doe","age":30,"score":95.5,"status":"active","verified":true})");
}

BOOST_AUTO_TEST_CASE(a_required_field_without_a_default_leaves_no_defaults) {
  auto form = schema(
      R"({"type":"object","properties":{"name":{"type":"string"},"x":{"type":"string","default":"d"}},"required":["name"]})");
  BOOST_TEST(!form_defaults(form).has_value());
  auto optional = schema(R"({"type":"object","properties":{"name":{"type":"string"}}})");
  BOOST_TEST(form_defaults(optional)->dump() == "{}");
}

BOOST_AUTO_TEST_CASE(one_answer_goes_to_the_one_required_field_without_a_default) {
  auto form = schema(R"({"type":"object","properties":{"name":{"type":"string"},
    "line":{"type":"string","default":"It was a dark and stormy night."},"email":{"type":"string"}},"required":["name"]})");
  auto content = fill_form(form, "Ada");
  BOOST_REQUIRE(content.has_value());
  BOOST_TEST(content->dump() == R"({"name":"Ada","line":"It was a dark and stormy night."})");
}

BOOST_AUTO_TEST_CASE(the_answer_is_converted_to_the_fields_type) {
  auto number = schema(R"({"type":"object","properties":{"n":{"type":"integer"}}})");
  BOOST_TEST(fill_form(number, "42")->dump() == R"({"n":42})");
  BOOST_TEST(fill_form(number, "forty").error().message == "field 'n': 'forty' is not an integer");
  auto flag = schema(R"({"type":"object","properties":{"ok":{"type":"boolean"}}})");
  BOOST_TEST(fill_form(flag, "Yes")->dump() == R"({"ok":true})");
}

BOOST_AUTO_TEST_CASE(an_enum_answer_matches_a_value_or_title_regardless_of_case) {
  auto form = schema(R"({"type":"object","properties":{"hero":{"type":"string",
    "oneOf":[{"const":"hero-1","title":"Superman"},{"const":"hero-2","title":"Green Lantern"}]}}})");
  BOOST_TEST(fill_form(form, "green lantern")->dump() == R"({"hero":"hero-2"})");
  BOOST_TEST(fill_form(form, "HERO-1")->dump() == R"({"hero":"hero-1"})");
  BOOST_TEST(fill_form(form, "Batman").error().message == "field 'hero': 'Batman' is not one of hero-1, hero-2");
}

BOOST_AUTO_TEST_CASE(a_list_answer_is_split_on_commas) {
  auto form = schema(
      R"({"type":"object","properties":{"tools":{"type":"array","items":{"type":"string","enum":["Guitar","Piano"]}}}})");
  BOOST_TEST(fill_form(form, "piano, guitar")->dump() == R"({"tools":["Piano","Guitar"]})");
}

BOOST_AUTO_TEST_CASE(one_answer_cannot_fill_two_required_fields) {
  auto form =
      schema(R"({"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["a","b"]})");
  auto content = fill_form(form, "x");
  BOOST_REQUIRE(!content.has_value());
  BOOST_TEST(content.error().message ==
             "the form has 2 required fields without a default; one answer cannot fill them");
}

BOOST_AUTO_TEST_SUITE_END()
