#include "base/redaction.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;

// base/redaction.{h,cpp} are issue 12's, taken as they are (the same files there).
BOOST_AUTO_TEST_SUITE(redact_values_of_secrets)

BOOST_AUTO_TEST_CASE(every_occurrence_of_every_value_is_replaced) {
  BOOST_TEST(redact_values("DATABASE_URL=postgres://u:hunter22@h and hunter22",
                           {"postgres://u:hunter22@h", "hunter22"}) == "DATABASE_URL=[redacted] and [redacted]");
}

BOOST_AUTO_TEST_CASE(values_shorter_than_four_bytes_are_left_alone) {
  BOOST_TEST(redact_values("on off", {"on", ""}) == "on off");
}

BOOST_AUTO_TEST_SUITE_END()
