#include "net/web_text.h"

#include <boost/test/unit_test.hpp>

namespace agent_run {

BOOST_AUTO_TEST_SUITE(web_text)

BOOST_AUTO_TEST_CASE(a_page_becomes_readable_text) {
  const char* html = R"(<!DOCTYPE html>
<html><head><title>Install &amp; run</title><style>body { color: red }</style>
<script>var x = "<p>not shown</p>";</script></head>
<body><nav><a href="/">Home</a></nav>
<h1>Installing</h1>
<p>Run   the
installer,
then <a href="https://example.org/next">read on</a>.</p>
<!-- a comment <p>hidden</p> -->
<ul><li>one</li><li>two &lt;b&gt;</li></ul>
<pre>  keep
    this</pre>
<table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td>1</td></tr></table>
<noscript>enable JavaScript</noscript>
<p>caf&eacute; &#233; &#x2014; &nbsp;end</p>
</body></html>)";
  BOOST_TEST(
      html_to_text(html) ==
      "# Install & run\n\nHome\n\n# Installing\n\nRun the installer, then read on (https://example.org/next).\n\n"
      "- one\n- two <b>\n  keep\n    this\n\n| k | v\n| a | 1\n\ncaf&eacute; \xC3\xA9 \xE2\x80\x94 end\n");
}

BOOST_AUTO_TEST_CASE(entities_decode_and_unknown_ones_stay) {
  BOOST_TEST(decode_html_entities("a &amp; b &#39;c&#x27; &bogus; &") == "a & b 'c' &bogus; &");
  BOOST_TEST(decode_html_entities("&#0; &#xD800; &#1114112;") == "&#0; &#xD800; &#1114112;");
}

BOOST_AUTO_TEST_CASE(plain_text_without_tags_is_kept_with_spaces_collapsed) {
  BOOST_TEST(html_to_text("just   text\n\n\n\nhere") == "just text here\n");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
