#include "app/exit_code.h"

#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

using namespace agent_run;

namespace {

/// A report of attempts with these outcomes, in this order.
RunReport report_of(const std::vector<Outcome>& outcomes) {
  RunReport report;
  for (Outcome outcome : outcomes) {
    AttemptResult attempt;
    attempt.outcome = outcome;
    report.attempts.push_back(attempt);
  }
  return report;
}

int code_for(const std::vector<Outcome>& outcomes) { return static_cast<int>(exit_code_for(report_of(outcomes))); }

}  // namespace

BOOST_AUTO_TEST_SUITE(exit_code)

BOOST_AUTO_TEST_CASE(a_failure_beats_an_error_and_an_error_beats_a_pass_in_any_order) {
  using enum Outcome;
  BOOST_TEST(code_for({passed, passed}) == 0);
  BOOST_TEST(code_for({passed, skipped}) == 0);
  BOOST_TEST(code_for({passed, error}) == 3);
  BOOST_TEST(code_for({error, passed}) == 3);
  BOOST_TEST(code_for({passed, failed}) == 1);
  BOOST_TEST(code_for({failed, error}) == 1);
  BOOST_TEST(code_for({error, failed}) == 1);
  BOOST_TEST(code_for({error, passed, failed, error}) == 1);
}

BOOST_AUTO_TEST_CASE(a_signal_gives_128_plus_its_number) {
  BOOST_TEST(exit_code_for_signal(2) == 130);
  BOOST_TEST(exit_code_for_signal(15) == 143);
}

BOOST_AUTO_TEST_SUITE_END()
