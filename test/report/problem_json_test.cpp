#include "report/problem_json.h"

#include <boost/test/unit_test.hpp>

namespace agent_run {
namespace {

BOOST_AUTO_TEST_SUITE(problem_json)

BOOST_AUTO_TEST_CASE(a_problem_reads_back_as_it_was_written) {
  const Problem problem{"src/a.py", 12, 5, "error", "\"x\" is not defined\n  twice", "reportUndefinedVariable", true};
  const Json json = problem_to_json(problem);
  BOOST_TEST(json.dump() ==
             R"({"path":"src/a.py","line":12,"column":5,"severity":"error","message":"\"x\" is not defined\n  twice",)"
             R"("code":"reportUndefinedVariable","other_file":true})");
  auto read = problem_from_json(parse_json(json.dump()).value());
  BOOST_REQUIRE(read.has_value());
  BOOST_TEST((*read == problem));
}

BOOST_AUTO_TEST_CASE(absent_members_keep_their_defaults) {
  auto read = problem_from_json(parse_json(R"({"path":"a.go","line":3})").value());
  BOOST_REQUIRE(read.has_value());
  BOOST_TEST((*read == Problem{"a.go", 3, 0, "", "", "", false}));
}

BOOST_AUTO_TEST_CASE(a_member_of_another_type_or_a_non_object_does_not_read) {
  BOOST_TEST(!problem_from_json(parse_json(R"({"path":"a.go","line":"3"})").value()).has_value());
  BOOST_TEST(!problem_from_json(parse_json(R"({"path":7})").value()).has_value());
  BOOST_TEST(!problem_from_json(parse_json(R"({"other_file":"no"})").value()).has_value());
  BOOST_TEST(!problem_from_json(parse_json("[1]").value()).has_value());
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace agent_run
