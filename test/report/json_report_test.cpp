#include "report/report_writers.h"
#include "report/sample_report.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>

namespace agent_run {
namespace {

using test::sample_attempt;
using test::sample_report;

/// The member `key` of `json`; fails the test when it is missing.
const Json& at(const Json& json, std::string_view key) {
  const Json* member = json.find(key);
  BOOST_REQUIRE_MESSAGE(member != nullptr, "missing member " << key);
  return *member;
}

Json parsed(const RunReport& report) {
  Expected<Json> json = parse_json(report_to_json(report).dump_pretty());
  BOOST_REQUIRE_MESSAGE(json.has_value(), (json ? "" : json.error().message));
  return *json;
}

/// Runs python3-jsonschema's draft 2020-12 validator on `json` against reports/report.schema.json.
test::CommandResult validate_against_schema(const Json& json) {
  test::CommandResult probe = test::run_shell("/usr/bin/python3 -c 'import jsonschema'", test::source_root());
  BOOST_REQUIRE_MESSAGE(probe.exit_code == 0,
                        "python3-jsonschema is missing (Debian package python3-jsonschema): " << probe.output);
  test::TempFolder folder;
  folder.write("report.json", json.dump_pretty());
  std::string command =
      "/usr/bin/python3 " +
      test::shell_quote((test::source_root() / "test/fixtures/report/validate_json_schema.py").string()) + " " +
      test::shell_quote((test::source_root() / "reports/report.schema.json").string()) + " report.json";
  return test::run_shell(command, folder.path());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(json_report)

BOOST_AUTO_TEST_CASE(report_round_trips_through_the_json_parser_with_every_field) {
  Json json = parsed(sample_report());
  BOOST_TEST(at(json, "schema").as_string() == "agent-run-report/2");
  const Json& run = at(json, "run");
  BOOST_TEST(at(run, "runner_version").as_string() == "0.1.0");
  BOOST_TEST(at(run, "started_at").as_string() == "2026-08-22T10:00:00Z");
  BOOST_TEST(at(run, "duration_ms").as_int() == 5250);
  BOOST_TEST(at(run, "command_line").as_array().size() == 5u);
  BOOST_TEST(at(run, "command_line").as_array()[3].as_string() == "--repeat");
  BOOST_TEST(at(at(run, "policy"), "file").as_string() == "policies/default.yaml");
  BOOST_TEST(at(at(run, "policy"), "sha256").as_string() == std::string(64, 'b'));
  BOOST_TEST(at(run, "interrupted").as_bool() == false);

  const Json::Array& attempts = at(json, "attempts").as_array();
  BOOST_REQUIRE_EQUAL(attempts.size(), 4u);
  const Json& failed = attempts[1];
  BOOST_TEST(at(failed, "task_id").as_string() == "fix-bug");
  BOOST_TEST(at(failed, "task_file").as_string() == "tasks/fix-bug.yaml");
  BOOST_TEST(at(failed, "task_sha256").as_string() == std::string(64, 'a'));
  BOOST_TEST(at(failed, "model").as_string() == "script");
  BOOST_TEST(at(failed, "n").as_int() == 2);
  BOOST_TEST(at(failed, "outcome").as_string() == "failed");
  BOOST_TEST(at(failed, "outcome_type").as_string() == "check.failed");
  BOOST_TEST(at(failed, "message").as_string() == "python3 -m pytest -q exited 1");
  BOOST_TEST(at(failed, "started_at").as_string() == "2026-08-22T10:00:01Z");
  BOOST_TEST(at(failed, "stop_reason").as_string() == "end_turn");
  BOOST_TEST(at(failed, "turns").as_int() == 3);
  BOOST_TEST(at(failed, "transcript_path").as_string() == "attempts/fix-bug/2/transcript.jsonl");
  BOOST_TEST(at(failed, "patch_path").as_string() == "attempts/fix-bug/2/patch.diff");
  BOOST_TEST(at(attempts[2], "outcome").as_string() == "error");
  BOOST_TEST(at(attempts[3], "outcome").as_string() == "skipped");
}

BOOST_AUTO_TEST_CASE(attempt_lists_and_figures_keep_the_struct_field_names) {
  const Json attempt = at(parsed(sample_report()), "attempts").as_array()[1];
  const Json& call = at(attempt, "tool_calls").as_array().at(0);
  BOOST_TEST(call.dump() ==
             R"({"turn":1,"id":"call_1","name":"read_file","input_summary":"src/a.py","decision":"allowed",)"
             R"("decided_by":"approval_class","rule_id":"","reason":"","duration_ms":12,"result_bytes":340,)"
             R"("is_error":false})");
  BOOST_TEST(
      at(attempt, "edits").as_array().at(0).dump() ==
      R"({"turn":2,"tool_call_id":"call_2","tool":"edit_file","path":"src/a.py","lines_added":4,"lines_removed":1,)"
      R"("diagnostics":null})");
  BOOST_TEST(at(attempt, "usage").dump() ==
             R"({"input_tokens":1000,"output_tokens":200,"cache_read_input_tokens":30,)"
             R"("cache_creation_input_tokens":4,"reasoning_tokens":50,"estimated":false,"cost_usd":0.25})");
  BOOST_TEST(
      at(attempt, "durations").dump() ==
      R"({"total_ms":1234,"setup_ms":100,"model_ms":800,"tools_ms":200,"checks_ms":134,"workspace_ms":0,"cleanup_ms":0})");
  BOOST_TEST(
      at(attempt, "setup").as_array().at(0).dump() ==
      R"({"run":"pip install -e .","passed":true,"exit_code":0,"timed_out":false,"duration_ms":100,"output_tail":""})");
  BOOST_TEST(at(attempt, "checks").as_array().at(0).dump() ==
             R"({"run":"python3 -m pytest -q","passed":false,"exit_code":1,"timed_out":false,"duration_ms":134,)"
             R"("output_tail":"FAILED test_a.py::test_parse\n"})");
  BOOST_TEST(at(attempt, "patch").dump() == R"({"files_changed":1,"lines_added":4,"lines_removed":1})");
}

BOOST_AUTO_TEST_CASE(totals_are_recomputed_from_the_attempts) {
  RunReport report = sample_report();
  report.attempts[2].tool_calls.push_back(ToolCallRecord{2, "call_9", "bash", "curl https://example.com", "denied",
                                                         "rule", "deny-net", "no network", 0, 0, true});
  report.attempts[3].usage.cost_usd = 0.5;
  report.attempts[3].usage.reasoning_tokens = 0;
  Json totals = at(at(parsed(report), "run"), "totals");
  BOOST_TEST(totals.dump() ==
             R"({"attempts":4,"passed":1,"failed":1,"error":1,"skipped":1,)"
             R"("usage":{"input_tokens":4000,"output_tokens":800,"cache_read_input_tokens":120,)"
             R"("cache_creation_input_tokens":16,"reasoning_tokens":150,"estimated":false,"cost_usd":1.25},)"
             R"("tool_calls":{"total":5,"denied":1}})");
}

BOOST_AUTO_TEST_CASE(cost_is_null_when_an_attempt_price_is_unknown) {
  RunReport report = sample_report();
  report.attempts[1].usage.cost_usd.reset();
  Json json = parsed(report);
  BOOST_TEST(at(at(at(json, "attempts").as_array()[1], "usage"), "cost_usd").is_null());
  BOOST_TEST(at(at(at(json, "attempts").as_array()[0], "usage"), "cost_usd").as_double() == 0.25);
  BOOST_TEST(at(at(at(at(json, "run"), "totals"), "usage"), "cost_usd").is_null());
}

BOOST_AUTO_TEST_CASE(one_estimated_attempt_marks_the_total_usage_estimated) {
  RunReport report = sample_report();
  report.attempts[0].usage.estimated = true;
  Json json = parsed(report);
  BOOST_TEST(at(at(at(json, "attempts").as_array()[0], "usage"), "estimated").as_bool() == true);
  BOOST_TEST(at(at(at(json, "attempts").as_array()[1], "usage"), "estimated").as_bool() == false);
  BOOST_TEST(at(at(at(at(json, "run"), "totals"), "usage"), "estimated").as_bool() == true);
}

BOOST_AUTO_TEST_CASE(a_run_without_attempts_has_zero_totals_and_a_known_zero_cost) {
  RunReport report = sample_report();
  report.attempts.clear();
  report.interrupted = true;
  Json json = parsed(report);
  BOOST_TEST(at(json, "attempts").as_array().empty());
  BOOST_TEST(at(at(json, "run"), "interrupted").as_bool() == true);
  BOOST_TEST(at(at(at(json, "run"), "totals"), "usage").dump() ==
             R"({"input_tokens":0,"output_tokens":0,"cache_read_input_tokens":0,)"
             R"("cache_creation_input_tokens":0,"reasoning_tokens":0,"estimated":false,"cost_usd":0})");
}

BOOST_AUTO_TEST_CASE(control_characters_and_invalid_utf8_still_give_parseable_json) {
  RunReport report = sample_report();
  report.attempts[1].message = "bell\x07 esc\x1b[31m bad\xff end";
  Json json = parsed(report);
  BOOST_TEST(at(at(json, "attempts").as_array()[1], "message").as_string() ==
             "bell\x07 esc\x1b[31m bad\xEF\xBF\xBD end");
}

BOOST_AUTO_TEST_CASE(run_policy_used_names_every_policy_the_attempts_used_once) {
  RunReport report = sample_report();
  report.policy_file.clear();  // no --policy: each task its own
  report.policy_sha256.clear();
  BOOST_REQUIRE(report.attempts.size() >= 3u);
  report.attempts[0].policy_file = "tasks/a/policy.yaml";
  report.attempts[0].policy_sha256 = std::string(64, 'a');
  report.attempts[1].policy_file = "";  // the built-in policy
  report.attempts[1].policy_sha256 = "";
  for (std::size_t i = 2; i < report.attempts.size(); ++i) report.attempts[i] = report.attempts[0];
  Json json = parsed(report);
  const Json& used = at(at(at(json, "run"), "policy"), "used");
  BOOST_TEST(used.dump() == R"([{"file":"tasks/a/policy.yaml","sha256":")" + std::string(64, 'a') +
                                R"("},{"file":"built-in","sha256":""}])");
  BOOST_TEST(at(at(json, "run"), "policy").get_string("file") == "");
  test::CommandResult result = validate_against_schema(report_to_json(report));
  BOOST_TEST(result.exit_code == 0, result.output);
}

BOOST_AUTO_TEST_CASE(writer_output_validates_against_the_report_schema) {
  RunReport report = sample_report();
  report.attempts[1].usage.cost_usd.reset();
  report.attempts[2].tool_calls.push_back(ToolCallRecord{2, "call_9", "bash", "curl https://example.com", "denied",
                                                         "rule", "deny-net", "no network", 0, 0, true});
  test::CommandResult result = validate_against_schema(report_to_json(report));
  BOOST_TEST(result.exit_code == 0, result.output);
  BOOST_TEST(result.output == "");

  report.attempts.clear();
  result = validate_against_schema(report_to_json(report));
  BOOST_TEST(result.exit_code == 0, result.output);
}

BOOST_AUTO_TEST_CASE(commit_shard_and_workspace_times_are_written_and_validate) {
  RunReport report = sample_report();
  report.shard = ShardRecord{2, 4};
  report.attempts[0].commit = CommitRecord{"agent/fix-bug-1", std::string(40, 'c')};
  report.attempts[0].durations.workspace_ms = 310;
  report.attempts[0].durations.cleanup_ms = 45;
  Json json = parsed(report);
  BOOST_TEST(at(at(json, "run"), "shard").dump() == R"({"index":2,"total":4})");
  BOOST_TEST(at(at(json, "attempts").as_array()[0], "commit").dump() ==
             R"({"branch":"agent/fix-bug-1","sha":")" + std::string(40, 'c') + R"("})");
  BOOST_TEST(at(at(json, "attempts").as_array()[1], "commit").is_null());
  BOOST_TEST(at(at(at(json, "attempts").as_array()[0], "durations"), "workspace_ms").as_int() == 310);
  test::CommandResult result = validate_against_schema(report_to_json(report));
  BOOST_TEST(result.exit_code == 0, result.output);
  report.shard.reset();
  BOOST_TEST(at(at(parsed(report), "run"), "shard").is_null());
}

BOOST_AUTO_TEST_CASE(report_schema_rejects_an_unknown_outcome_a_missing_field_and_an_extra_one) {
  Json json = report_to_json(sample_report());
  Json::Array& attempts = json.as_object()[2].second.as_array();
  attempts[0].set("outcome", "maybe");
  Json::Object& second = attempts[1].as_object();
  second.erase(std::find_if(second.begin(), second.end(), [](const auto& member) { return member.first == "turns"; }));
  json.set("extra", 1);
  test::CommandResult result = validate_against_schema(json);
  BOOST_TEST(result.exit_code == 1);
  BOOST_TEST(result.output ==
             "/: Additional properties are not allowed ('extra' was unexpected)\n"
             "/attempts/0/outcome: 'maybe' is not one of ['passed', 'failed', 'error', 'skipped']\n"
             "/attempts/1: 'turns' is a required property\n");
}

/// Reports whose run-level fields differ: every outcome, none at all, and a sharded, interrupted run of
/// two models under two policies with a text that needs escaping (aggregates, model matrix, policy.used).
std::vector<RunReport> reports_of_every_shape() {
  RunReport empty = sample_report();
  empty.attempts.clear();
  RunReport varied = test::repeated_report();
  varied.shard = ShardRecord{2, 3};
  varied.interrupted = true;
  varied.command_line = {"agent-run", "tasks/flip.yaml", "--note", "a \"quoted\"\nline\tand \u00e9"};
  varied.attempts[1].policy_file = "policies/strict.yaml";
  varied.attempts[1].policy_sha256 = std::string(64, 'c');
  varied.attempts[2].final_message = "two\nlines {\"not\": [\"json\"]}";
  return {sample_report(), empty, varied};
}

// The report folder writes report.json an attempt at a time, so the run's whole tree is never in
// memory: the text must be the tree's, byte for byte (the soak's memory grew with it), run-level
// fields included.
BOOST_AUTO_TEST_CASE(the_report_written_an_attempt_at_a_time_is_the_trees_text_to_the_byte) {
  for (const RunReport& report : reports_of_every_shape()) {
    std::string text;
    std::size_t pieces = 0;
    write_report_json(report, [&](std::string_view piece) {
      text += piece;
      ++pieces;
    });
    BOOST_TEST(text == report_to_json(report).dump_pretty());
    BOOST_TEST(pieces == report.attempts.size() + 1);
  }
  const Json run = at(parsed(reports_of_every_shape()[2]), "run");
  BOOST_TEST(at(at(run, "policy"), "used").as_array().size() == 2u);
  BOOST_TEST(at(at(run, "aggregates"), "models").as_array().size() == 2u);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
