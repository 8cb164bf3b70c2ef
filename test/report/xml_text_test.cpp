#include "report/xml_text.h"

#include <boost/test/unit_test.hpp>

#include <string>

namespace agent_run {

using namespace std::string_literals;

BOOST_AUTO_TEST_SUITE(xml_text)

BOOST_AUTO_TEST_CASE(markup_characters_are_entities_in_text_and_attributes) {
  BOOST_TEST(xml_escape_text("a ]]> b <&> \"q\" 'x'") == "a ]]&gt; b &lt;&amp;&gt; &quot;q&quot; 'x'");
  BOOST_TEST(xml_escape_attribute("a ]]> b <&> \"q\" 'x'") == "a ]]&gt; b &lt;&amp;&gt; &quot;q&quot; 'x'");
}

BOOST_AUTO_TEST_CASE(text_keeps_tab_and_newline_and_references_carriage_return) {
  BOOST_TEST(xml_escape_text("a\tb\nc\r\n") == "a\tb\nc&#13;\n");
}

BOOST_AUTO_TEST_CASE(attributes_reference_tab_newline_and_carriage_return) {
  BOOST_TEST(xml_escape_attribute("a\tb\nc\r\n") == "a&#9;b&#10;c&#13;&#10;");
}

BOOST_AUTO_TEST_CASE(control_characters_del_and_c1_controls_become_visible_hex) {
  std::string text = "nul\0 soh\x01 bell\x07 esc\x1b us\x1f del\x7f c1\xc2\x80\xc2\x9f"s;
  BOOST_TEST(xml_printable(text) == "nul#x00 soh#x01 bell#x07 esc#x1B us#x1F del#x7F c1#x80#x9F");
  BOOST_TEST(xml_escape_attribute("\x0b\x0c") == "#x0B#x0C");
}

BOOST_AUTO_TEST_CASE(non_characters_fffe_and_ffff_become_visible_hex) {
  BOOST_TEST(xml_printable("a\xef\xbf\xbe"
                           "b\xef\xbf\xbf"
                           "c") == "a#xFFFEb#xFFFFc");
}

BOOST_AUTO_TEST_CASE(invalid_utf8_and_encoded_surrogates_become_replacement_characters) {
  std::string replacement = "\xef\xbf\xbd";
  BOOST_TEST(xml_printable("a\xff"
                           "b") == "a" + replacement + "b");
  BOOST_TEST(xml_printable("cut\xe2\x82") == "cut" + replacement + replacement);
  BOOST_TEST(xml_printable("\xed\xa0\x80") == replacement + replacement + replacement);
  BOOST_TEST(xml_printable("\xc0\xaf") == replacement + replacement);
}

BOOST_AUTO_TEST_CASE(valid_text_beyond_ascii_is_kept_as_is) {
  std::string text = "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xee\x80\x80 \xef\xbf\xbd";
  BOOST_TEST(xml_printable(text) == text);
  BOOST_TEST(xml_escape_text(text) == text);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
