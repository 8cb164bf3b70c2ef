#include "report/report_writers.h"
#include "report/sample_report.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;
using namespace agent_run::test;

namespace {

/// A report whose first attempt called a real API: one call retried twice, one call given up.
RunReport report_with_model_calls() {
  RunReport report = sample_report();
  report.price_table_version = "2025-11-24";
  report.price_table_file = "built-in";
  AttemptResult& attempt = report.attempts.at(0);
  attempt.model = "anthropic/claude-sonnet-4-5";
  ModelCallRecord answered;
  answered.turn = 1;
  answered.request_id = "req_ok";
  answered.response_model = "claude-sonnet-4-5-20250929";
  answered.stop_reason = "tool_use";
  answered.usage = attempt.usage;
  answered.duration_ms = 1520;
  answered.failed_tries.push_back(ModelTryRecord{1, 429, "rate_limit_error", "rate limited", "req_429", 7000, 35});
  answered.failed_tries.push_back(ModelTryRecord{2, 0, "connection", "connection refused", "", 1000, 2});
  ModelCallRecord failed;
  failed.turn = 2;
  failed.error = "gave up after 7 tries";
  failed.usage = Usage::zero();
  attempt.model_calls = {answered, failed};
  attempt.warnings = {"limits.cost_usd ($2.00) was not enforced: the cost of openai/llama3 is unknown"};
  return report;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(model_calls_report)

BOOST_AUTO_TEST_CASE(model_calls_their_failed_tries_warnings_and_the_price_table_are_written) {
  Json json = report_to_json(report_with_model_calls());
  BOOST_TEST(json.find("run")->find("price_table")->dump() == R"({"version":"2025-11-24","file":"built-in"})");
  const Json& attempt = json.find("attempts")->as_array().at(0);
  const Json::Array& calls = attempt.find("model_calls")->as_array();
  BOOST_REQUIRE(calls.size() == 2u);
  BOOST_TEST(
      calls[0].find("failed_tries")->as_array()[0].dump() ==
      R"({"try":1,"status":429,"error_type":"rate_limit_error","message":"rate limited","request_id":"req_429","wait_ms":7000,"duration_ms":35})");
  BOOST_TEST(calls[1].get_string("error") == "gave up after 7 tries");
  BOOST_TEST(attempt.find("warnings")->as_array().size() == 1u);
}

BOOST_AUTO_TEST_CASE(the_report_with_model_calls_validates_against_the_schema) {
  TempFolder folder;
  folder.write("report.json", report_to_json(report_with_model_calls()).dump_pretty());
  CommandResult valid =
      run_shell("python3 " + shell_quote((source_root() / "test/fixtures/report/validate_json_schema.py").string()) +
                    " " + shell_quote((source_root() / "reports/report.schema.json").string()) + " report.json",
                folder.path());
  BOOST_TEST_INFO(valid.output);
  BOOST_TEST(valid.exit_code == 0);
}

BOOST_AUTO_TEST_SUITE_END()
