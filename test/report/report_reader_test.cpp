#include "report/report_reader.h"
#include "report/report_writers.h"
#include "report/sample_report.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

namespace agent_run {
namespace {

/// A sample report with every optional field set too.
RunReport full_report() {
  RunReport report = test::sample_report();
  report.shard = ShardRecord{3, 4};
  report.interrupted = true;
  report.attempts[0].commit = CommitRecord{"agent/fix-bug-1", std::string(40, 'c')};
  report.attempts[0].durations.workspace_ms = 12;
  report.attempts[0].durations.cleanup_ms = 3;
  report.attempts[1].usage.cost_usd.reset();
  report.attempts[1].usage.estimated = true;
  report.price_table_version = "2026-08-01";
  report.price_table_file = "prices/custom.json";
  AttemptResult& first = report.attempts[0];
  first.policy_file = "policies/default.yaml";
  first.policy_sha256 = std::string(64, 'd');
  ModelCallRecord call;
  call.turn = 1;
  call.request_id = "req_2";
  call.response_model = "claude-x-20260801";
  call.stop_reason = "tool_use";
  call.usage = first.usage;
  call.duration_ms = 4100;
  call.failed_tries.push_back(ModelTryRecord{1, 529, "overloaded_error", "Overloaded", "req_1", 2000, 150});
  call.failed_tries.push_back(ModelTryRecord{2, 0, "connection", "connection reset", "", 0, 20});
  first.model_calls.push_back(call);
  ModelCallRecord failed;
  failed.turn = 2;
  failed.error = "retries exhausted";
  failed.usage = Usage::zero();
  first.model_calls.push_back(failed);
  first.warnings = {"limits.cost_usd ($1.00) was not enforced: the cost of openai/x is unknown"};
  first.todos = {TodoItem{"read the parser", "completed"}, TodoItem{"fix the bug", "in_progress"}};
  first.questions.push_back(QuestionRecord{2, "Which database?", {"sqlite", "postgres"}, "sqlite", "rule", 0});
  first.background_processes.push_back(
      BackgroundProcessRecord{"bg1", "python3 -m http.server", 4242, "attempt_end", -1, 15, 1234, 5000});
  first.escaped_processes.push_back(EscapedProcessRecord{4250, "sleep 1000"});
  first.sandboxed = true;
  first.environment_dropped = {"EDITOR", "GH_PAT"};
  first.final_message = "Fixed the parser.\nEvery test passes.";
  EditDiagnostics diagnostics;
  diagnostics.checker = "pyright-langserver";
  diagnostics.checker_version = "1.1.400";
  diagnostics.checker_kind = "server";
  diagnostics.status = "problems";
  diagnostics.problems = {Problem{"src/a.py", 3, 5, "error", "\"x\" is not defined", "reportUndefinedVariable", false},
                          Problem{"src/b.py", 9, 1, "warning", "unused import", "", true}};
  diagnostics.introduced = {diagnostics.problems[0]};
  diagnostics.resolved = {Problem{"src/a.py", 1, 1, "error", "syntax error", "", false}};
  diagnostics.compared = true;
  diagnostics.duration_ms = 640;
  first.edits[0].diagnostics = diagnostics;
  first.message = "every check passed";  // a passed attempt says nothing; the reader must keep it when one does
  first.tool_calls[0].rule_id = "reads";
  first.tool_calls[0].reason = "allowed by rule 'reads'";
  ToolCallRecord mcp_call{2, "call_3", "mcp__github__get_issue", "#12", "allowed", "rule", "github", "allowed", 900, 0, true};
  mcp_call.mcp_server = "github";
  mcp_call.mcp_tool = "get_issue";
  mcp_call.error = "the server closed the connection";
  first.tool_calls.push_back(mcp_call);
  first.edits[0].diagnostics->note = "checked against the file before the edit";
  first.edits[0].diagnostics->problems[1].code = "F401";
  first.edits[0].diagnostics->resolved[0].code = "E999";
  first.setup[0].output_tail = "Successfully installed demo\n";
  first.model_calls[1].failed_tries.push_back(ModelTryRecord{1, 500, "api_error", "Internal", "req_3", 1000, 80});
  first.edits[0].checks = {CheckRecord{"ruff check src/a.py", false, 1, false, 45, "src/a.py:3:5: F821\n"}};
  first.durations.baseline_ms = 870;
  first.output_path = "attempts/fix-bug/1/output.json";
  first.structured_output = Json::object().set("verdict", "approve").set("notes", Json(Json::Array{Json("parser")}));
  first.check_rounds = {CheckRound{1, 3, false, {CheckRecord{"python3 -m pytest -q", false, 1, false, 90, "FAILED\n"}}, true},
                        CheckRound{2, 5, true, {first.checks[0]}, false}};
  first.system_prompt_sha256 = std::string(64, 'e');
  first.instruction_files = {"AGENTS.md", "src/AGENTS.md"};
  first.context.window = 200000;
  first.context.prunings = 1;
  first.context.compactions = 1;
  first.context.events = {ContextEvent{4, "compacted", 190000, 40000, 3, 0.02, "the window was nearly full"}};
  first.sandbox.kind = "bubblewrap";
  first.sandbox.why_none = "not sandboxed before setup";  // a string the reader must not lose, however odd here
  first.sandbox.set_by = "policies/default.yaml:17";
  first.sandbox.bubblewrap = "0.8.0";
  first.sandbox.masked = {".env", "config/secrets.yaml"};
  first.sandbox.masked_total = 2;
  first.sandbox.masked_later = {LateMaskRecord{"notes/.env", "rule 'secrets'", "agent", "2026-08-22T10:00:02Z"}};
  first.sandbox.masked_later_total = 1;
  first.sandbox.read_only = {".github/workflows"};
  first.sandbox.shown = {ShownRecord{"/srv/fixtures", "sandbox.read (tasks/t.yaml:7)", false},
                         ShownRecord{"/srv/cache", "sandbox.read_write (tasks/t.yaml:8)", true}};
  first.sandbox.survey_complete = false;
  first.sandbox.survey_note = "the walk stopped at 100000 entries";
  first.patch_withheld = {WithheldPath{".env", "hidden by rule 'secrets'"}};
  McpServerRecord server;
  server.name = "github";
  server.transport = "stdio";
  server.required = true;
  server.sandboxed = true;
  server.status = "connected";
  server.error = "closed early: the attempt ended";
  server.server_name = "github-mcp";
  server.server_version = "1.2.3";
  server.protocol_version = "2025-06-18";
  server.startup_ms = 340;
  server.tools = {"mcp__github__get_issue"};
  server.skipped_tools = {"delete_repo: not allowed by the policy"};
  server.stderr_tail = "listening\n";
  server.stderr_bytes = 10;
  server.ending = "exited 0";
  server.log = {McpLogRecord{"info", "github", "ready"}};
  server.log_count = 1;
  server.elicitations = {McpElicitationRecord{"Which repo?", "decline", "deny", "no human"}};
  first.mcp_servers = {server};
  return report;
}

/// The paths in `json` of every empty array, empty object, empty string and null: what a reader
/// could drop unseen, since a round trip of an empty field reads back as empty again.
void collect_empty(const Json& json, const std::string& path, std::vector<std::string>& empty) {
  if (json.is_null() || (json.is_string() && json.as_string().empty()) ||
      (json.is_array() && json.as_array().empty()) || (json.is_object() && json.as_object().empty())) {
    empty.push_back(path);
    return;
  }
  if (json.is_array()) {
    for (std::size_t i = 0; i < json.as_array().size(); ++i) {
      collect_empty(json.as_array()[i], path + "[" + std::to_string(i) + "]", empty);
    }
  } else if (json.is_object()) {
    for (const auto& [key, value] : json.as_object()) collect_empty(value, path + "." + key, empty);
  }
}

std::string error_reading(const std::string& text) {
  auto json = parse_json(text);
  BOOST_REQUIRE(json.has_value());
  auto report = report_from_json(*json, "out/report.json");
  return report ? std::string("(read)") : report.error().message;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(report_reader)

BOOST_AUTO_TEST_CASE(what_the_writer_writes_the_reader_reads_back_field_for_field) {
  RunReport report = full_report();
  Json written = report_to_json(report);
  auto read = report_from_json(written, "report.json");
  BOOST_REQUIRE_MESSAGE(read.has_value(), (read ? std::string() : read.error().message));
  BOOST_TEST(report_to_json(*read).dump_pretty() == written.dump_pretty());
  BOOST_TEST(read->shard->index == 3);
  BOOST_TEST(!read->attempts[1].usage.cost_usd.has_value());
  BOOST_TEST(read->attempts[0].commit->branch == "agent/fix-bug-1");
  BOOST_TEST(!read->attempts[1].commit.has_value());
  const AttemptResult& first = read->attempts[0];
  BOOST_TEST(read->price_table_version == "2026-08-01");
  BOOST_TEST(first.policy_sha256 == std::string(64, 'd'));
  BOOST_REQUIRE(first.model_calls.size() == 2u);
  BOOST_REQUIRE(first.model_calls[0].failed_tries.size() == 2u);
  BOOST_TEST(first.model_calls[0].failed_tries[0].status == 529);
  BOOST_TEST(first.model_calls[0].failed_tries[0].wait_ms == 2000);
  BOOST_TEST(first.model_calls[1].error == "retries exhausted");
  BOOST_TEST(first.warnings.size() == 1u);
  BOOST_TEST(first.todos[1].status == "in_progress");
  BOOST_REQUIRE(first.questions.size() == 1u);
  BOOST_TEST(first.questions[0].options == (std::vector<std::string>{"sqlite", "postgres"}),
             boost::test_tools::per_element());
  BOOST_TEST(first.background_processes[0].signal == 15);
  BOOST_TEST(first.background_processes[0].output_bytes == 1234u);
  BOOST_TEST(first.escaped_processes[0].command == "sleep 1000");
  BOOST_TEST(first.environment_dropped == (std::vector<std::string>{"EDITOR", "GH_PAT"}), boost::test_tools::per_element());
  BOOST_TEST(first.sandboxed);
  BOOST_REQUIRE(first.edits[0].diagnostics.has_value());
  BOOST_TEST(first.edits[0].diagnostics->problems[1].other_file);
  BOOST_TEST(first.edits[0].diagnostics->resolved[0].message == "syntax error");
  BOOST_TEST(!read->attempts[1].edits[0].diagnostics.has_value());
  BOOST_TEST(!read->attempts[1].sandboxed);
  BOOST_TEST(first.final_message == "Fixed the parser.\nEvery test passes.");
  BOOST_TEST(read->attempts[1].n == 2);
  BOOST_REQUIRE(first.sandbox.masked_later.size() == 1u);
  BOOST_TEST(first.sandbox.masked_later[0].first_masked_at == "2026-08-22T10:00:02Z");
  BOOST_REQUIRE(first.patch_withheld.size() == 1u);
  BOOST_TEST(first.patch_withheld[0].why == "hidden by rule 'secrets'");
  BOOST_REQUIRE(first.structured_output.has_value());
  BOOST_TEST(first.structured_output->get_string("verdict") == "approve");
  BOOST_REQUIRE(first.check_rounds.size() == 2u);
  BOOST_TEST(first.check_rounds[0].fed_back);
  BOOST_TEST(first.check_rounds[0].checks.at(0).output_tail == "FAILED\n");
  BOOST_REQUIRE(first.edits[0].checks.size() == 1u);
  BOOST_TEST(first.edits[0].checks[0].run == "ruff check src/a.py");
  BOOST_TEST(first.durations.baseline_ms == 870);
  BOOST_TEST(first.output_path == "attempts/fix-bug/1/output.json");
  BOOST_REQUIRE(first.mcp_servers.size() == 1u);
  BOOST_TEST(first.mcp_servers[0].elicitations.at(0).reason == "no human");
}

// The round trip above sees a field the reader drops only when the sample fills it: the first
// attempt of full_report() leaves nothing empty but what is listed here (each empty by its nature
// in that attempt), so a new field of the report must be filled in above before this passes.
BOOST_AUTO_TEST_CASE(the_round_trips_sample_leaves_no_field_of_its_first_attempt_empty) {
  std::vector<std::string> empty;
  collect_empty(report_to_json(full_report()).find("attempts")->as_array().at(0), "attempt", empty);
  std::string listed;
  for (const std::string& path : empty) listed += path + "\n";
  BOOST_TEST_INFO("empty:\n" << listed);
  BOOST_TEST(empty ==
                 (std::vector<std::string>{
                     "attempt.model_calls[0].error",                       // it succeeded (model_calls[1] has one)
                     "attempt.model_calls[0].failed_tries[1].request_id",  // a reset connection: no reply
                     "attempt.model_calls[1].request_id",                  // it failed: no reply to name
                     "attempt.model_calls[1].response_model",              // (model_calls[0] has each)
                     "attempt.model_calls[1].stop_reason",
                 }),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(an_older_report_is_read_with_its_0_based_repeat_index_as_n) {
  auto json =
      parse_json(R"({"schema": "agent-run-report/1", "run": {"duration_ms": 5}, "attempts": [)"
                 R"({"task_id": "a", "outcome": "passed", "repeat_index": 0},)"
                 R"({"task_id": "a", "outcome": "failed", "outcome_type": "check.failed", "repeat_index": 2}]})");
  BOOST_REQUIRE(json.has_value());
  auto read = report_from_json(*json, "old/report.json");
  BOOST_REQUIRE_MESSAGE(read.has_value(), (read ? std::string() : read.error().message));
  BOOST_TEST(read->attempts[0].n == 1);
  BOOST_TEST(read->attempts[1].n == 3);
  BOOST_TEST(read->attempts[1].final_message.empty());
  BOOST_TEST(report_to_json(*read).get_string("schema") == "agent-run-report/2");  // written back in the new one
}

BOOST_AUTO_TEST_CASE(a_file_is_read_from_disk_and_fields_it_does_not_know_are_ignored) {
  test::TempFolder folder;
  Json json = report_to_json(full_report());
  json.set("later_field", Json::object().set("x", 1));
  json.as_object()[1].second.set("run_level_addition", "y");
  folder.write("report.json", json.dump_pretty());
  auto read = read_report_file(folder.path() / "report.json");
  BOOST_REQUIRE_MESSAGE(read.has_value(), (read ? std::string() : read.error().message));
  BOOST_TEST(read->attempts.size() == 4u);
  BOOST_TEST(read->policy_sha256 == std::string(64, 'b'));
}

BOOST_AUTO_TEST_CASE(errors_name_the_file_and_the_field) {
  BOOST_TEST(error_reading(R"({"schema": "agent-run-report/3", "run": {}, "attempts": []})") ==
             "out/report.json: not an agent-run report this version reads (schema 'agent-run-report/3', expected "
             "'agent-run-report/2' or the older 'agent-run-report/1')");
  BOOST_TEST(error_reading(R"({"schema": "agent-run-report/2", "run": {}, "attempts": [)"
                           R"({"task_id": "a", "outcome": "passed", "n": 0}]})") ==
             "out/report.json: attempts[0].n: expected a number from 1, got 0");
  BOOST_TEST(error_reading(R"({"schema": "agent-run-report/1", "run": {"duration_ms": "long"}, "attempts": []})") ==
             "out/report.json: run.duration_ms: expected a whole number");
  BOOST_TEST(error_reading(R"({"schema": "agent-run-report/1", "run": {}, "attempts": [)"
                           R"({"task_id": "a", "outcome": "passed"}, {"task_id": "b", "outcome": "won"}]})") ==
             "out/report.json: attempts[1].outcome: expected passed, failed, error or skipped, got 'won'");
  BOOST_TEST(error_reading(R"({"schema": "agent-run-report/1", "run": {}, "attempts": [)"
                           R"({"task_id": "a", "outcome": "passed", "usage": {"cost_usd": "free"}}]})") ==
             "out/report.json: attempts[0].usage.cost_usd: expected a number or null");
  BOOST_TEST(error_reading(R"({"schema": "agent-run-report/1", "run": {}, "attempts": [{"outcome": "passed"}]})") ==
             "out/report.json: attempts[0]: has no task_id");
  BOOST_TEST(error_reading(
                 R"({"schema": "agent-run-report/1", "run": {}, "attempts": [)"
                 R"({"task_id": "a", "outcome": "passed", "model_calls": [{"failed_tries": [{"try": "one"}]}]}]})") ==
             "out/report.json: attempts[0].model_calls[0].failed_tries[0].try: expected a whole number");
  BOOST_TEST(error_reading(R"({"schema": "agent-run-report/1", "run": {}, "attempts": [)"
                           R"({"task_id": "a", "outcome": "passed", "questions": [{"options": ["a", 2]}]}]})") ==
             "out/report.json: attempts[0].questions[0].options[1]: expected a string");
  BOOST_TEST(error_reading(R"({"schema": "agent-run-report/1", "run": {}, "attempts": [)"
                           R"({"task_id": "a", "outcome": "failed", "outcome_type": "check.flaky"}]})") ==
             "out/report.json: attempts[0].outcome_type: expected an outcome type (passed, check.failed, ...), got "
             "\"check.flaky\"");
  BOOST_TEST(
      error_reading(R"({"schema": "agent-run-report/1", "run": {}, "attempts": [)"
                    R"({"task_id": "a", "outcome": "passed", "stop_reason": "tired"}]})") ==
      "out/report.json: attempts[0].stop_reason: expected a stop reason (end_turn, limit.turns, ...), got 'tired'");
  test::TempFolder folder;
  folder.write("report.json", "{\"schema\": ");
  auto truncated = read_report_file(folder.path() / "report.json");
  BOOST_REQUIRE(!truncated.has_value());
  BOOST_TEST(truncated.error().message.starts_with((folder.path() / "report.json").string() + ": not valid JSON: "));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
