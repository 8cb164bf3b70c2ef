#include "agent/agent_loop.h"
#include "agent/transcript_recorder.h"
#include "support/fakes.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <sstream>

using namespace agent_run;
using namespace agent_run::test;
using namespace std::chrono_literals;

namespace {

/// A workspace folder, the built-in tools, a fake clock and a transcript file.
struct ModelCallsFixture {
  TempFolder folder;
  ToolRegistry tools = make_tool_registry(std::nullopt);
  FakeClock clock;
  ToolScope scope;
  SessionState session;
  Limits limits;
  ModelCallsFixture() { scope.workspace = folder.path(); }

  /// Runs the loop; returns its record and keeps how it went in `last`.
  AgentRecord run_loop(RecordingModel& model, std::vector<AgentObserver*> observers = {}) {
    const Policy policy = builtin_policy();  // outlives the loop, which keeps a reference
    AgentLoop loop(model, tools, policy, clock, std::move(observers));
    AgentRecord record;
    last = loop.run("do the task", limits, scope, session, record);
    return record;
  }
  AgentRun last;
};

ModelTurn cut_off_turn() {
  ModelTurn turn = says("Writing it now.");
  turn.stop_reason = StopReason::max_tokens;
  turn.truncated_call = "write_file";
  return turn;
}

std::vector<Json> transcript_lines(const std::string& text) {
  std::vector<Json> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(parse_json(line).value());
  return lines;
}

}  // namespace

BOOST_FIXTURE_TEST_SUITE(agent_loop_model_calls, ModelCallsFixture)

BOOST_AUTO_TEST_CASE(the_attempts_time_limit_is_handed_to_the_model_as_its_deadline) {
  limits.time = 10min;
  const Clock::SteadyTime start = clock.now();
  RecordingModel model({says("done")});
  run_loop(model);
  BOOST_REQUIRE(model.deadline.has_value());
  BOOST_TEST((*model.deadline == start + 10min));
}

BOOST_AUTO_TEST_CASE(every_call_is_recorded_with_its_usage_stop_and_failed_tries) {
  folder.write("a.txt", "x\n");
  RecordingModel model({calls_tool("c1", "read_file", Json::object().set("path", "a.txt"), 25), says("done")});
  model.call_record.request_id = "req_1";
  model.call_record.failed_tries.push_back(ModelTryRecord{1, 529, "overloaded_error", "Overloaded", "req_0", 500, 12});
  model.on_call = [&] { clock.advance(40ms); };
  AgentRecord run = run_loop(model);
  BOOST_REQUIRE(run.model_calls.size() == 2u);
  BOOST_TEST(run.model_calls[0].turn == 1);
  BOOST_TEST(run.model_calls[0].stop_reason == "tool_use");
  BOOST_TEST(run.model_calls[0].usage.input_tokens == 25);
  BOOST_TEST(run.model_calls[0].duration_ms == 40);
  BOOST_TEST(run.model_calls[0].request_id == "req_1");
  BOOST_REQUIRE(run.model_calls[0].failed_tries.size() == 1u);
  BOOST_TEST(run.model_calls[0].failed_tries[0].status == 529);
  BOOST_TEST(run.model_calls[1].turn == 2);
  BOOST_TEST(run.model_calls[1].stop_reason == "end_turn");
}

BOOST_AUTO_TEST_CASE(a_model_failure_is_a_model_error_and_is_recorded) {
  RecordingModel model({});
  model.fail_with = "anthropic/x: HTTP 401 authentication_error: invalid x-api-key; check ANTHROPIC_API_KEY";
  AgentRecord run = run_loop(model);
  BOOST_TEST((run.stop_reason == AgentStop::model_error));
  BOOST_TEST(last.message == *model.fail_with);
  BOOST_REQUIRE(run.model_calls.size() == 1u);
  BOOST_TEST(run.model_calls[0].error == *model.fail_with);
  BOOST_TEST(run.model_calls[0].stop_reason == "");
  BOOST_TEST(run.turns == 0);
}

BOOST_AUTO_TEST_CASE(a_model_call_cut_off_by_the_deadline_is_a_time_limit) {
  limits.time = 1min;
  RecordingModel model({});
  model.fail_with = "the attempt's time limit was reached during the model call";
  model.on_call = [&] { clock.advance(61s); };
  AgentRecord run = run_loop(model);
  BOOST_TEST((run.stop_reason == AgentStop::limit_time));
  BOOST_TEST(last.message == *model.fail_with);
}

BOOST_AUTO_TEST_CASE(a_call_cut_by_the_output_limit_is_named_and_never_run) {
  RecordingModel model({cut_off_turn()});
  AgentRecord run = run_loop(model);
  BOOST_TEST((run.stop_reason == AgentStop::model_max_tokens));
  BOOST_TEST(last.message ==
             "the model's answer was cut at its output token limit in the middle of a call to write_file; the call was "
             "not run");
  BOOST_TEST(run.tool_calls.empty());
}

BOOST_AUTO_TEST_CASE(a_cost_limit_with_an_unknown_cost_is_a_warning_and_a_known_cost_is_not) {
  limits.cost_usd = 1.0;
  ModelTurn unpriced = says("done");
  unpriced.usage.cost_usd.reset();
  RecordingModel unknown({unpriced});
  AgentRecord run = run_loop(unknown);
  BOOST_REQUIRE(run.warnings.size() == 1u);
  BOOST_TEST(run.warnings[0] ==
             "limits.cost_usd ($1.00) was not enforced: the cost of test/recording is unknown (no price for it in the "
             "price table)");
  RecordingModel known({says("done")});
  BOOST_TEST(run_loop(known).warnings.empty());
}

BOOST_AUTO_TEST_CASE(the_transcript_records_each_requests_new_messages_and_the_request_id) {
  folder.write("a.txt", "x\n");
  RecordingModel model({calls_tool("c1", "read_file", Json::object().set("path", "a.txt")), says("done")});
  model.call_record.request_id = "req_42";
  {
    TranscriptRecorder transcript(folder.path() / "t.jsonl");
    run_loop(model, {&transcript});
  }
  std::vector<Json> lines = transcript_lines(folder.read("t.jsonl"));
  std::vector<const Json*> requests;
  for (const Json& line : lines) {
    if (line.get_string("type") == "request") requests.push_back(&line);
  }
  BOOST_REQUIRE(requests.size() == 2u);
  BOOST_TEST(requests[0]->find("new_messages")->as_array().size() == 1u);
  BOOST_TEST(requests[1]->find("new_messages")->as_array().size() == 2u);
  BOOST_TEST(requests[1]->find("message_count")->as_int() == 3);
  const Json& results = requests[1]->find("new_messages")->as_array()[1];
  BOOST_TEST(results.find("tool_results")->as_array()[0].get_string("call_id") == "c1");
  BOOST_TEST(lines[2].get_string("type") == "response");
  BOOST_TEST(lines[2].get_string("request_id") == "req_42");
}

BOOST_AUTO_TEST_SUITE_END()
