#include "diagnostics/warning_promotion.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;

BOOST_AUTO_TEST_SUITE(warning_promotion)

BOOST_AUTO_TEST_CASE(werror_makes_every_warning_an_error_but_those_exempted_after_it) {
  WarningPromotion flags({"-Wall", "-Werror", "-Wno-error=unused-variable"});
  BOOST_TEST(flags.promotes("-Wunused-parameter"));
  BOOST_TEST(flags.promotes("-Werror,-Wunused-parameter"));  // clang's own spelling of the code
  BOOST_TEST(!flags.promotes("-Wunused-variable"));
  BOOST_TEST(!flags.promotes("clang-tidy"));  // not a compiler warning
  BOOST_TEST(!flags.promotes(""));
}

BOOST_AUTO_TEST_CASE(a_later_flag_wins_as_for_the_compiler) {
  BOOST_TEST(!WarningPromotion({"-Werror", "-Wno-error"}).promotes("-Wshadow"));
  BOOST_TEST(!WarningPromotion({"-Werror=shadow", "-Wno-error=shadow"}).promotes("-Wshadow"));
  BOOST_TEST(WarningPromotion({"-Wno-error=shadow", "-Werror=shadow"}).promotes("-Wshadow"));
  BOOST_TEST(!WarningPromotion({"-Werror=shadow"}).promotes("-Wunused"));
}

BOOST_AUTO_TEST_CASE(pedantic_errors_leave_the_verdict_to_the_compiler) {
  WarningPromotion flags({"-std=c1x", "-pedantic", "-pedantic-errors"});
  BOOST_TEST(flags.any());
  BOOST_TEST(!flags.promotes("-Wimplicit-function-declaration"));
  BOOST_TEST(flags.needs_compiler("-Wimplicit-function-declaration"));
  BOOST_TEST(!flags.needs_compiler("clangd"));
  BOOST_TEST(!WarningPromotion({"-Wall", "-Wextra"}).any());
}

BOOST_AUTO_TEST_CASE(the_warning_is_named_from_gcc_s_and_clang_s_codes) {
  BOOST_TEST(warning_name("-Wimplicit-function-declaration") == "-Wimplicit-function-declaration");
  BOOST_TEST(warning_name("-Werror,-Wimplicit-function-declaration") == "-Wimplicit-function-declaration");
  BOOST_TEST(warning_name("-Werror") == "");
  BOOST_TEST(warning_name("E0308") == "");
}

BOOST_AUTO_TEST_SUITE_END()
