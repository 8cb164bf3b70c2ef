#include "report/markdown_text.h"

#include <boost/test/unit_test.hpp>

#include <string>

namespace agent_run {

using namespace std::string_literals;

BOOST_AUTO_TEST_SUITE(markdown_text_escaping)

BOOST_AUTO_TEST_CASE(markdown_and_html_characters_are_backslash_escaped) {
  BOOST_TEST(markdown_text("a|b *c* _d_ [l](u) <b> `x` #1 @team ~s~ &amp; !\\") ==
             "a\\|b \\*c\\* \\_d\\_ \\[l\\]\\(u\\) \\<b\\> \\`x\\` \\#1 \\@team \\~s\\~ \\&amp; \\!\\\\");
}

BOOST_AUTO_TEST_CASE(line_breaks_become_spaces_so_a_table_row_stays_one_row) {
  BOOST_TEST(markdown_text("one\r\ntwo\nthree\tfour") == "one two three four");
}

BOOST_AUTO_TEST_CASE(control_characters_and_invalid_utf8_become_printable) {
  BOOST_TEST(markdown_text("bell\x07 bad\xff"s) == "bell\\#x07 bad\xef\xbf\xbd");
}

BOOST_AUTO_TEST_CASE(long_text_is_cut_on_a_utf8_boundary_with_an_ellipsis) {
  std::string text =
      "ab\xc3\xa9"
      "cd";  // a b é c d
  BOOST_TEST(markdown_text(text, 3) == "ab\xe2\x80\xa6");
  BOOST_TEST(markdown_text(text, 4) == "ab\xc3\xa9\xe2\x80\xa6");
}

BOOST_AUTO_TEST_CASE(a_code_block_fence_is_longer_than_any_backtick_run_inside) {
  BOOST_TEST(markdown_code_block("x ``` y\n", "text", 1000) == "````text\nx ``` y\n````\n");
  BOOST_TEST(markdown_code_block("plain", "", 1000) == "```\nplain\n```\n");
}

BOOST_AUTO_TEST_CASE(a_code_block_keeps_the_tail_and_says_the_head_was_cut) {
  BOOST_TEST(markdown_code_block("0123456789", "", 4) ==
             "```\n[... the head was cut: the whole text is in report.json]\n6789\n```\n");
}

BOOST_AUTO_TEST_CASE(a_quote_escapes_each_line) {
  BOOST_TEST(markdown_quote("Done: <b>ok</b>\n\n- item", 1000) == "> Done: \\<b\\>ok\\</b\\>\n>\n> - item\n");
}

BOOST_AUTO_TEST_CASE(html_text_inside_a_summary_uses_entities) {
  BOOST_TEST(markdown_html_text("a <b> & \"c\"\nd") == "a &lt;b&gt; &amp; &quot;c&quot; d");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
