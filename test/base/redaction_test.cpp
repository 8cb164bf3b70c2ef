#include "base/redaction.h"
#include "base/file_uri.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;

BOOST_AUTO_TEST_SUITE(redaction)

BOOST_AUTO_TEST_CASE(every_occurrence_of_every_secret_is_replaced) {
  BOOST_TEST(redact_values("Bearer abcd1234 and abcd1234 again, xyz9876", {"abcd1234", "xyz9876"}) ==
             "Bearer [redacted] and [redacted] again, [redacted]");
}

BOOST_AUTO_TEST_CASE(a_secret_inside_the_marker_does_not_loop_and_short_values_are_left) {
  BOOST_TEST(redact_values("dact dact", {"dact"}) == "[redacted] [redacted]");
  BOOST_TEST(redact_values("a b c", {"a", ""}) == "a b c");
}

BOOST_AUTO_TEST_CASE(a_file_uri_percent_encodes_and_decodes_back) {
  std::string uri = path_to_uri("/tmp/a b/ü.txt");
  BOOST_TEST(uri == "file:///tmp/a%20b/%C3%BC.txt");
  BOOST_TEST(uri_to_path(uri).string() == "/tmp/a b/ü.txt");
}

BOOST_AUTO_TEST_SUITE_END()
