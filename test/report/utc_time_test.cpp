#include "report/utc_time.h"

#include <boost/test/unit_test.hpp>

namespace agent_run {

BOOST_AUTO_TEST_SUITE(utc_time)

BOOST_AUTO_TEST_CASE(utc_times_read_with_and_without_zone_and_fraction) {
  BOOST_TEST(parse_utc_ms("1970-01-01T00:00:00Z").value() == 0);
  BOOST_TEST(parse_utc_ms("1970-01-01T00:00:01").value() == 1000);
  BOOST_TEST(parse_utc_ms("1970-01-01T00:00:01.5Z").value() == 1500);
  BOOST_TEST(parse_utc_ms("1970-01-01T00:00:01.123456Z").value() == 1123);
  BOOST_TEST(parse_utc_ms("2026-08-22T10:00:00Z").value() == 1787392800000LL);
}

BOOST_AUTO_TEST_CASE(zone_offsets_are_converted_to_utc) {
  BOOST_TEST(parse_utc_ms("2026-08-22T12:00:00+02:00").value() == parse_utc_ms("2026-08-22T10:00:00Z").value());
  BOOST_TEST(parse_utc_ms("2026-08-22T05:30:00-04:30").value() == parse_utc_ms("2026-08-22T10:00:00Z").value());
}

BOOST_AUTO_TEST_CASE(text_that_is_not_an_iso_time_is_rejected) {
  BOOST_TEST(!parse_utc_ms(""));
  BOOST_TEST(!parse_utc_ms("2026-08-22"));
  BOOST_TEST(!parse_utc_ms("2026-08-22 10:00:00"));
  BOOST_TEST(!parse_utc_ms("2026-02-30T10:00:00Z"));
  BOOST_TEST(!parse_utc_ms("2026-08-22T24:00:00Z"));
  BOOST_TEST(!parse_utc_ms("2026-08-22T10:00:00 UTC"));
  BOOST_TEST(!parse_utc_ms("2026-08-22T10:00:00+0200"));
}

BOOST_AUTO_TEST_CASE(junit_timestamps_drop_the_fraction_and_the_zone) {
  BOOST_TEST(format_utc_seconds(0) == "1970-01-01T00:00:00");
  BOOST_TEST(format_utc_seconds(1787392800999LL) == "2026-08-22T10:00:00");
  BOOST_TEST(format_utc_seconds(parse_utc_ms("2024-02-29T23:59:59.999+00:00").value()) == "2024-02-29T23:59:59");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
