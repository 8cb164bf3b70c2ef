#include "report/outcome.h"
#include "base/files.h"
#include "base/json.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

using namespace agent_run;

namespace {

/// The `enum` of the attempt's property `name` in reports/report.schema.json.
std::vector<std::string> schema_enum(const std::string& name) {
  auto text = read_file(test::source_root() / "reports/report.schema.json");
  BOOST_REQUIRE(text.has_value());
  auto schema = parse_json(*text);
  BOOST_REQUIRE(schema.has_value());
  const Json* property = schema->find("$defs")->find("attempt")->find("properties")->find(name);
  BOOST_REQUIRE(property != nullptr);
  std::vector<std::string> names;
  for (const Json& item : property->find("enum")->as_array()) names.push_back(item.as_string());
  return names;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(outcome)

BOOST_AUTO_TEST_CASE(the_schema_enumerates_the_codes_outcome_types_in_order) {
  std::vector<std::string> code;
  for (const OutcomeTypeRow& row : outcome_types()) code.emplace_back(row.name);
  BOOST_TEST(schema_enum("outcome_type") == code, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(the_schema_enumerates_the_codes_stop_reasons_and_the_empty_one) {
  std::vector<std::string> code = {""};
  for (const AgentStopRow& row : agent_stops()) code.emplace_back(row.name);
  BOOST_TEST(schema_enum("stop_reason") == code, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(names_read_back_to_their_values_and_unknown_names_to_none) {
  for (const OutcomeTypeRow& row : outcome_types()) {
    BOOST_TEST((outcome_type_named(row.name) == row.type), row.name);
    BOOST_TEST(std::string(to_string(row.type)) == std::string(row.name));
  }
  for (const AgentStopRow& row : agent_stops()) BOOST_TEST((agent_stop_named(row.name) == row.stop), row.name);
  BOOST_TEST(!outcome_type_named("check.flaky").has_value());
  BOOST_TEST(!agent_stop_named("").has_value());
  BOOST_TEST((outcome_named("skipped") == Outcome::skipped));
}

BOOST_AUTO_TEST_CASE(each_type_has_the_outcome_the_reports_have_always_given_it) {
  BOOST_TEST((outcome_of(OutcomeType::passed) == Outcome::passed));
  BOOST_TEST((outcome_of(OutcomeType::check_failed) == Outcome::failed));
  BOOST_TEST((outcome_of(OutcomeType::limit_turns) == Outcome::failed));
  BOOST_TEST((outcome_of(OutcomeType::ask_user_unanswered) == Outcome::failed));
  BOOST_TEST((outcome_of(OutcomeType::check_not_judged) == Outcome::error));
  BOOST_TEST((outcome_of(OutcomeType::interrupted) == Outcome::error));
  BOOST_TEST((outcome_of(OutcomeType::runner_crashed) == Outcome::error));
}

BOOST_AUTO_TEST_CASE(an_agent_stop_gives_its_outcome_type_except_end_turn_which_the_checks_judge) {
  BOOST_TEST(!outcome_type_of(AgentStop::end_turn).has_value());
  BOOST_TEST((outcome_type_of(AgentStop::model_error) == OutcomeType::model_unavailable));
  BOOST_TEST((outcome_type_of(AgentStop::limit_cost) == OutcomeType::limit_cost));
  BOOST_TEST((outcome_type_of(AgentStop::ask_user_unanswered) == OutcomeType::ask_user_unanswered));
  for (const AgentStopRow& row : agent_stops()) {
    if (row.outcome && row.stop != AgentStop::model_error) {
      BOOST_TEST(std::string(to_string(*row.outcome)) == std::string(row.name), "a stop's type has its name");
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
