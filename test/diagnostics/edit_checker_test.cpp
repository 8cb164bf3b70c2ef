#include "diagnostics/edit_checker.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;
using namespace std::chrono_literals;

BOOST_AUTO_TEST_SUITE(edit_checker)

// pyright answers a warm edit in 1.2-1.6 s on a 2-core machine while pyflakes takes about 150 ms: with
// the whole 700 ms kept for pyflakes, pyright's answer (which sees the importers) came too late.
BOOST_AUTO_TEST_CASE(a_server_that_has_answered_keeps_the_linter_only_twice_its_last_time) {
  BOOST_TEST(reserve_for_linter(700ms, true, 150ms).count() == 300);
  BOOST_TEST(reserve_for_linter(700ms, true, 50ms).count() == 250);   // never less than 250 ms
  BOOST_TEST(reserve_for_linter(700ms, true, 600ms).count() == 700);  // never more than the settings'
}

BOOST_AUTO_TEST_CASE(a_server_that_never_answered_or_a_linter_never_timed_keeps_the_whole_reserve) {
  BOOST_TEST(reserve_for_linter(700ms, false, 150ms).count() == 700);  // a stuck server is not waited for longer
  BOOST_TEST(reserve_for_linter(700ms, true, std::nullopt).count() == 700);
}

BOOST_AUTO_TEST_SUITE_END()
