#include "report/report_folder.h"
#include "report/report_merge.h"
#include "report/report_reader.h"
#include "report/sample_report.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

namespace agent_run {
namespace {

using test::sample_attempt;

RunReport shard_report(int index, int total, std::vector<AttemptResult> attempts, std::string started_at) {
  RunReport report;
  report.runner_version = "0.1.0";
  report.started_at = std::move(started_at);
  report.duration_ms = 1000;
  report.shard = ShardRecord{index, total};
  report.price_table_version = "2026-08-01";
  report.price_table_file = "built-in";
  report.attempts = std::move(attempts);
  return report;
}

std::vector<std::string> ids_and_paths(const RunReport& report) {
  std::vector<std::string> out;
  for (const AttemptResult& attempt : report.attempts) {
    out.push_back(attempt.task_id + " " + std::to_string(attempt.n) + " " + attempt.transcript_path);
  }
  return out;
}

std::string merge_error(const std::vector<MergeInput>& inputs) {
  auto merged = merge_reports(inputs, {"agent-run", "merge"});
  return merged ? std::string("(merged)") : merged.error().message;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(report_merge)

BOOST_AUTO_TEST_CASE(shards_merge_in_task_order_with_the_run_spanning_them_all) {
  std::vector<MergeInput> inputs = {
      {"shard-2", shard_report(2, 2, {sample_attempt("b", 1, Outcome::passed), sample_attempt("d", 1, Outcome::failed)},
                               "2026-08-22T10:00:05Z")},
      {"shard-1", shard_report(1, 2,
                               {sample_attempt("a", 1, Outcome::passed), sample_attempt("a", 2, Outcome::error),
                                sample_attempt("c", 1, Outcome::passed)},
                               "2026-08-22T10:00:00Z")}};
  inputs[0].report.interrupted = true;
  auto merged = merge_reports(inputs, {"agent-run", "merge", "shard-1", "shard-2"});
  BOOST_REQUIRE_MESSAGE(merged.has_value(), (merged ? std::string() : merged.error().message));
  BOOST_TEST(ids_and_paths(merged->report) ==
                 (std::vector<std::string>{"a 1 attempts/a/1/transcript.jsonl", "a 2 attempts/a/2/transcript.jsonl",
                                           "b 1 attempts/b/1/transcript.jsonl", "c 1 attempts/c/1/transcript.jsonl",
                                           "d 1 attempts/d/1/transcript.jsonl"}),
             boost::test_tools::per_element());
  BOOST_TEST(merged->report.started_at == "2026-08-22T10:00:00Z");
  BOOST_TEST(merged->report.duration_ms == 6000);
  BOOST_TEST(merged->report.interrupted);
  BOOST_TEST(!merged->report.shard.has_value());
  BOOST_TEST(merged->report.command_line.size() == 4u);
  BOOST_TEST(merged->report.price_table_version == "2026-08-01");
  BOOST_TEST(merged->report.price_table_file == "built-in");
  BOOST_TEST(merged->warnings.empty());
  BOOST_REQUIRE_EQUAL(merged->copies.size(), 10u);
  BOOST_TEST(merged->copies[0].from == std::filesystem::path("shard-1/attempts/a/1/transcript.jsonl"));
  BOOST_TEST(merged->copies[0].to == "attempts/a/1/transcript.jsonl");
}

BOOST_AUTO_TEST_CASE(runs_of_one_task_with_different_models_get_folders_named_by_model) {
  AttemptResult first = sample_attempt("t", 1, Outcome::passed);
  AttemptResult second = sample_attempt("t", 1, Outcome::passed);
  second.model = "openai/gpt";
  RunReport one = shard_report(1, 1, {first}, "2026-08-22T10:00:00Z");
  RunReport two = shard_report(1, 1, {second}, "2026-08-22T11:00:00Z");
  one.shard.reset();
  two.shard.reset();
  auto merged = merge_reports({{"night-a", one}, {"night-b", two}}, {});
  BOOST_REQUIRE(merged.has_value());
  BOOST_TEST(
      ids_and_paths(merged->report) == (std::vector<std::string>{"t 1 attempts/t/script/1/transcript.jsonl",
                                                                 "t 1 attempts/t/openai-gpt/1/transcript.jsonl"}),
      boost::test_tools::per_element());
  BOOST_TEST(merged->copies[2].from == std::filesystem::path("night-b/attempts/t/1/transcript.jsonl"));
}

BOOST_AUTO_TEST_CASE(overlapping_and_mismatched_runs_are_refused_with_the_folders_named) {
  auto attempt = [](const std::string& id) { return sample_attempt(id, 1, Outcome::passed); };
  RunReport a = shard_report(1, 2, {attempt("a")}, "2026-08-22T10:00:00Z");
  RunReport b = shard_report(2, 2, {attempt("b")}, "2026-08-22T10:00:00Z");
  BOOST_TEST(merge_error({{"x", a}, {"y", a}}) == "overlapping runs: 'x' and 'y' are both shard 1/2");
  RunReport three = shard_report(2, 3, {attempt("b")}, "2026-08-22T10:00:00Z");
  BOOST_TEST(merge_error({{"x", a}, {"y", three}}) == "mismatched runs: 'x' is a shard of 2 and 'y' a shard of 3");
  RunReport again = b;
  again.shard.reset();
  again.attempts = {attempt("a")};
  BOOST_TEST(merge_error({{"x", a}, {"z", again}}) ==
             "overlapping runs: attempt 'a #1 [script]' is in both 'x' and 'z'");
  again.attempts[0].n = 2;
  again.attempts[0].task_sha256 = std::string(64, 'f');
  BOOST_TEST(merge_error({{"x", a}, {"z", again}}) ==
             "mismatched runs: task 'a' has different task files in 'x' (sha256 aaaaaaaaaaaa) and 'z' (sha256 "
             "ffffffffffff); merge runs of the same task files");
  RunReport newer = b;
  newer.runner_version = "0.2.0";
  BOOST_TEST(
      merge_error({{"x", a}, {"y", newer}}) ==
      "mismatched runs: 'x' was written by agent-run 0.1.0 and 'y' by 0.2.0; merge reports of one runner version");
  RunReport other_policy = b;
  a.policy_file = "p1.yaml";
  a.policy_sha256 = std::string(64, '1');
  other_policy.policy_file = "p2.yaml";
  other_policy.policy_sha256 = std::string(64, '2');
  BOOST_TEST(merge_error({{"x", a}, {"y", other_policy}}) ==
             "mismatched runs: 'x' and 'y' ran under different policies (--policy p1.yaml and p2.yaml)");
  RunReport repriced = b;
  repriced.price_table_version = "2026-09-01";
  repriced.price_table_file = "prices.json";
  BOOST_TEST(merge_error({{"y", b}, {"x", repriced}}) ==
             "mismatched runs: 'y' priced its model calls with the price table 2026-08-01 (built-in) and 'x' with "
             "2026-09-01 (prices.json); merge runs priced by one table (--prices)");
  RunReport escaping = b;
  escaping.attempts[0].patch_path = "../../etc/passwd";
  BOOST_TEST(merge_error({{"y", escaping}}) == "'y': attempt 'b #1 [script]' names a file outside its folder");
}

BOOST_AUTO_TEST_CASE(a_missing_shard_is_a_warning_not_a_refusal) {
  RunReport a = shard_report(1, 3, {sample_attempt("a", 1, Outcome::passed)}, "2026-08-22T10:00:00Z");
  RunReport c = shard_report(3, 3, {sample_attempt("c", 1, Outcome::passed)}, "2026-08-22T10:00:00Z");
  auto merged = merge_reports({{"x", a}, {"z", c}}, {});
  BOOST_REQUIRE(merged.has_value());
  BOOST_TEST(
      merged->warnings == std::vector<std::string>{"shard 2/3 is missing: its attempts are not in the merged report"},
      boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(merged_files_are_copied_and_missing_ones_listed) {
  test::TempFolder input;
  test::TempFolder out;
  input.write("attempts/a/1/transcript.jsonl", "{\"type\":\"prompt\"}\n");
  RunReport report = shard_report(1, 1, {sample_attempt("a", 1, Outcome::passed)}, "2026-08-22T10:00:00Z");
  auto merged = merge_reports({{input.path(), report}}, {});
  BOOST_REQUIRE(merged.has_value());
  auto missing = copy_merged_files(*merged, out.path());
  BOOST_REQUIRE(missing.has_value());
  BOOST_TEST(out.read("attempts/a/1/transcript.jsonl") == "{\"type\":\"prompt\"}\n");
  BOOST_TEST(*missing == std::vector<std::string>{(input.path() / "attempts/a/1/patch.diff").string()},
             boost::test_tools::per_element());
}

// Shard 1 ran task t once and it passed (its own pass rate 1); shard 2 ran it three times, one
// pass (1/3). The average of those averages would be 2/3; from the four attempts it is 2 of 4.
BOOST_AUTO_TEST_CASE(merge_recomputes_the_aggregates_from_the_attempts_not_from_the_shards_figures) {
  test::TempFolder one;
  test::TempFolder two;
  test::TempFolder out;
  RunReport first = shard_report(1, 2, {sample_attempt("t", 1, Outcome::passed)}, "2026-08-22T10:00:00Z");
  RunReport second = shard_report(2, 2,
                                  {sample_attempt("t", 2, Outcome::failed), sample_attempt("t", 3, Outcome::passed),
                                   sample_attempt("t", 4, Outcome::failed)},
                                  "2026-08-22T10:00:01Z");
  BOOST_REQUIRE(ReportFolder(one.path()).write(first).has_value());
  BOOST_REQUIRE(ReportFolder(two.path()).write(second).has_value());
  auto read_one = read_report_file(one.path() / "report.json");
  auto read_two = read_report_file(two.path() / "report.json");
  BOOST_REQUIRE(read_one.has_value() && read_two.has_value());
  auto merged = merge_reports({{one.path(), *read_one}, {two.path(), *read_two}}, {"agent-run", "merge"});
  BOOST_REQUIRE(merged.has_value());
  BOOST_REQUIRE(ReportFolder(out.path()).write(merged->report).has_value());
  Expected<Json> json = parse_json(out.read("report.json"));
  BOOST_REQUIRE(json.has_value());
  auto at = [](const Json& json, std::string_view key) -> const Json& {
    const Json* member = json.find(key);
    BOOST_REQUIRE_MESSAGE(member != nullptr, "missing member " << key);
    return *member;
  };
  const Json& task = at(at(at(*json, "run"), "aggregates"), "tasks").as_array().at(0);
  BOOST_TEST(at(at(task, "counts"), "judged").as_int() == 4);
  BOOST_TEST(at(at(task, "counts"), "pass_rate").as_double() == 0.5);
  const Json::Array& pass_at_k = at(task, "pass_at_k").as_array();
  BOOST_REQUIRE_EQUAL(pass_at_k.size(), 4u);
  BOOST_TEST(pass_at_k[0].as_double() == 0.5);
  // pass@2 = 1 - C(2,2)/C(4,2) = 5/6; pass^2 = C(2,2)/C(4,2) = 1/6 (six decimals in the report).
  BOOST_TEST(pass_at_k[1].as_double() == 0.833333);
  BOOST_TEST(at(task, "pass_hat_k").as_array()[1].as_double() == 0.166667);
  BOOST_TEST(at(task, "flaky").as_bool());
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
