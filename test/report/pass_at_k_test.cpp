#include "report/pass_at_k.h"

#include <boost/test/unit_test.hpp>

namespace agent_run {

BOOST_AUTO_TEST_SUITE(pass_at_k_estimators)

// Hand-computed: n = 5 judged attempts, c = 2 passed.
//   pass@1 = 1 - C(3,1)/C(5,1) = 1 - 3/5  = 0.4
//   pass@2 = 1 - C(3,2)/C(5,2) = 1 - 3/10 = 0.7
//   pass@3 = 1 - C(3,3)/C(5,3) = 1 - 1/10 = 0.9
//   pass@4 = 1 - C(3,4)/C(5,4) = 1 - 0    = 1
//   pass^1 = C(2,1)/C(5,1) = 0.4, pass^2 = C(2,2)/C(5,2) = 0.1, pass^3 = C(2,3)/C(5,3) = 0
BOOST_AUTO_TEST_CASE(pass_at_k_matches_the_unbiased_estimator_computed_by_hand) {
  std::vector<double> at = pass_at_every_k(5, 2);
  BOOST_REQUIRE_EQUAL(at.size(), 5u);
  BOOST_TEST(at[0] == 0.4, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(at[1] == 0.7, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(at[2] == 0.9, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(at[3] == 1.0, boost::test_tools::tolerance(1e-12));
  std::vector<double> hat = pass_hat_every_k(5, 2);
  BOOST_TEST(hat[0] == 0.4, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(hat[1] == 0.1, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(hat[2] == 0.0);
  BOOST_TEST(hat[4] == 0.0);
}

// One pass of three: pass@1 = 1/3, pass@2 = 1 - C(2,2)/C(3,2) = 2/3, pass@3 (k = n) = 1; pass^3 = 0.
BOOST_AUTO_TEST_CASE(at_k_equal_to_n_one_pass_is_enough_and_pass_hat_needs_all) {
  BOOST_TEST(*pass_at_k(3, 1, 1) == 1.0 / 3, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(*pass_at_k(3, 1, 2) == 2.0 / 3, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(*pass_at_k(3, 1, 3) == 1.0);
  BOOST_TEST(*pass_hat_k(3, 1, 3) == 0.0);
  BOOST_TEST(*pass_hat_k(3, 3, 3) == 1.0);
}

BOOST_AUTO_TEST_CASE(all_passing_is_one_at_every_k_and_none_passing_is_zero) {
  for (double value : pass_at_every_k(4, 4)) BOOST_TEST(value == 1.0);
  for (double value : pass_hat_every_k(4, 4)) BOOST_TEST(value == 1.0);
  for (double value : pass_at_every_k(4, 0)) BOOST_TEST(value == 0.0);
  for (double value : pass_hat_every_k(4, 0)) BOOST_TEST(value == 0.0);
  BOOST_TEST(pass_at_every_k(4, 4).size() == 4u);
}

BOOST_AUTO_TEST_CASE(k_outside_one_to_n_has_no_value) {
  BOOST_TEST(!pass_at_k(3, 1, 0));
  BOOST_TEST(!pass_at_k(3, 1, 4));
  BOOST_TEST(!pass_hat_k(0, 0, 1));
  BOOST_TEST(pass_at_every_k(0, 0).empty());
}

BOOST_AUTO_TEST_CASE(median_of_an_even_count_is_the_mean_of_the_middle_two) {
  BOOST_TEST(*median_of({4, 1, 3}) == 3.0);
  BOOST_TEST(*median_of({4, 1, 3, 10}) == 3.5);
  BOOST_TEST(*mean_of({4, 1, 3, 10}) == 4.5);
  BOOST_TEST(!median_of({}));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
