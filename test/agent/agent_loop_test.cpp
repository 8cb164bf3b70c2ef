#include "agent/agent_loop.h"
#include "agent/finish_review.h"
#include "diagnostics/diagnostics_checker.h"
#include "support/fakes.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;
using namespace agent_run::test;

namespace {

Policy allowing(std::vector<std::string> tools) {
  Policy policy;
  policy.rules.push_back(Rule{"allow-listed", Verdict::allow, false, std::move(tools), "", 1});
  return policy;
}

/// A workspace folder, the built-in tools and a context pointing at it.
struct LoopFixture {
  TempFolder folder;
  ToolRegistry tools = make_tool_registry(std::nullopt);
  FakeClock clock;
  ToolScope scope;
  SessionState session;
  Limits limits;
  LoopFixture() { scope.workspace = folder.path(); }

  /// Runs the loop; returns its record and keeps how it went in `last`.
  AgentRecord run_loop(RecordingModel& model, const Policy& policy) {
    AgentLoop loop(model, tools, policy, clock);
    AgentRecord record;
    last = loop.run("do the task", limits, scope, session, record);
    return record;
  }
  AgentRun last;
};

}  // namespace

BOOST_FIXTURE_TEST_SUITE(agent_loop, LoopFixture)

BOOST_AUTO_TEST_CASE(tool_results_are_fed_back_to_the_model) {
  folder.write("notes.txt", "hello\n");
  RecordingModel model({calls_tool("c1", "read_file", Json::object().set("path", "notes.txt")), says("done")});
  AgentRecord run = run_loop(model, builtin_policy());
  BOOST_TEST((run.stop_reason == AgentStop::end_turn));
  BOOST_TEST(run.turns == 2);
  BOOST_REQUIRE(model.received.size() == 2);
  const Message& answer = model.received[1].messages.back();
  BOOST_REQUIRE(answer.tool_results.size() == 1);
  BOOST_TEST(answer.tool_results[0].call_id == "c1");
  BOOST_TEST(answer.tool_results[0].content == "     1\thello\n");
  BOOST_TEST(last.final_text == "done");
}

BOOST_AUTO_TEST_CASE(denied_call_is_reported_back_and_runs_nothing) {
  RecordingModel model({calls_tool("c1", "bash", Json::object().set("command", "touch pwned")), says("ok")});
  Policy policy;
  policy.rules.push_back(Rule{"no-shell", Verdict::deny, false, {"bash"}, "no shell here", 3});
  AgentRecord run = run_loop(model, policy);
  BOOST_TEST(!std::filesystem::exists(folder.path() / "pwned"));
  const ToolResult& result = model.received[1].messages.back().tool_results.at(0);
  BOOST_TEST(result.is_error);
  BOOST_TEST(result.content == "Denied by rule 'no-shell': denied by policy: no shell here. The call was not run.");
  BOOST_REQUIRE(run.tool_calls.size() == 1);
  BOOST_TEST(run.tool_calls[0].decision == "denied");
  BOOST_TEST(run.tool_calls[0].rule_id == "no-shell");
  BOOST_TEST((run.stop_reason == AgentStop::end_turn));
}

BOOST_AUTO_TEST_CASE(unmatched_call_is_denied_by_default) {
  RecordingModel model({calls_tool("c1", "write_file", Json::object().set("path", "a.txt").set("content", "x"))});
  AgentRecord run = run_loop(model, builtin_policy());
  BOOST_TEST(!std::filesystem::exists(folder.path() / "a.txt"));
  BOOST_TEST(run.tool_calls.at(0).decided_by == "unmatched");
  BOOST_TEST(model.received[1].messages.back().tool_results.at(0).content ==
             "Denied: no rule allows write_file; the policy denies unmatched calls. The call was not run.");
}

BOOST_AUTO_TEST_CASE(turn_limit_stops_the_loop) {
  limits.turns = 3;
  std::vector<ModelTurn> endless(10, calls_tool("c", "read_file", Json::object().set("path", "missing.txt")));
  RecordingModel model(endless);
  AgentRecord run = run_loop(model, builtin_policy());
  BOOST_TEST((run.stop_reason == AgentStop::limit_turns));
  BOOST_TEST(run.turns == 3);
  BOOST_TEST(model.received.size() == 3u);
}

BOOST_AUTO_TEST_CASE(a_limit_keeps_the_last_words_the_model_said_before_it) {
  limits.turns = 2;
  std::vector<ModelTurn> turns(4, calls_tool("c", "read_file", Json::object().set("path", "missing.txt")));
  turns[0].message.text = "Reading the file first.";
  turns[1].message.text = "";  // a turn with calls only keeps the words before it
  RecordingModel model(turns);
  AgentRecord run = run_loop(model, builtin_policy());
  BOOST_TEST((run.stop_reason == AgentStop::limit_turns));
  BOOST_TEST(last.final_text == "Reading the file first.");
}

BOOST_AUTO_TEST_CASE(wall_time_limit_stops_the_loop_without_sleeping) {
  limits.time = std::chrono::seconds(60);
  std::vector<ModelTurn> endless(10, calls_tool("c", "read_file", Json::object().set("path", "missing.txt")));
  RecordingModel model(endless);
  model.on_call = [&] { clock.advance(std::chrono::seconds(25)); };
  AgentRecord run = run_loop(model, builtin_policy());
  BOOST_TEST((run.stop_reason == AgentStop::limit_time));
  BOOST_TEST(run.turns == 3);
}

BOOST_AUTO_TEST_CASE(token_and_cost_limits_stop_the_loop) {
  limits.tokens = 25;
  std::vector<ModelTurn> endless(10, calls_tool("c", "read_file", Json::object().set("path", "x"), 10));
  RecordingModel tokens_model(endless);
  BOOST_TEST((run_loop(tokens_model, builtin_policy()).stop_reason == AgentStop::limit_tokens));
  limits.tokens.reset();
  limits.cost_usd = 0.025;
  RecordingModel cost_model(endless);
  AgentRecord run_with_cost = run_loop(cost_model, builtin_policy());
  BOOST_TEST((run_with_cost.stop_reason == AgentStop::limit_cost));
  BOOST_TEST(run_with_cost.turns == 3);
}

BOOST_AUTO_TEST_CASE(model_failure_ends_the_run_as_a_model_error) {
  RecordingModel model({});
  model.fail_with = "endpoint unreachable";
  AgentRecord run = run_loop(model, builtin_policy());
  BOOST_TEST((run.stop_reason == AgentStop::model_error));
  BOOST_TEST(last.message == "endpoint unreachable");
  BOOST_TEST(run.turns == 0);
}

BOOST_AUTO_TEST_CASE(several_calls_in_one_turn_each_get_a_result_and_edits_are_recorded) {
  folder.write("a.txt", "one\n");
  ModelTurn both = calls_tool("r", "read_file", Json::object().set("path", "a.txt"));
  both.message.tool_calls.push_back(
      ToolCall{"e", "edit_file", Json::object().set("path", "a.txt").set("old", "one").set("new", "two\nthree")});
  RecordingModel model({both});
  AgentRecord run = run_loop(model, allowing({"edit_file"}));
  BOOST_TEST(model.received[1].messages.back().tool_results.size() == 2u);
  BOOST_TEST(folder.read("a.txt") == "two\nthree\n");
  BOOST_REQUIRE(run.edits.size() == 1);
  BOOST_TEST(run.edits[0].path == "a.txt");
  BOOST_TEST(run.edits[0].lines_added == 2);
  BOOST_TEST(run.edits[0].lines_removed == 1);
}

namespace {

/// Writes down every step the loop tells its observers, one short line each.
struct StepLog final : AgentObserver {
  std::vector<std::string> steps;
  void started(const Conversation& conversation, const std::vector<ToolSchema>& tools) override {
    steps.push_back("started " + conversation.messages.front().text + " with " + std::to_string(tools.size()) +
                    " tools");
  }
  void request(int turn, const std::string& model, const Conversation& conversation, std::int64_t) override {
    steps.push_back("request " + std::to_string(turn) + " to " + model + " of " +
                    std::to_string(conversation.messages.size()) + " messages");
  }
  void turn(int turn, const ModelTurn& response, const ModelCallRecord& call) override {
    steps.push_back("turn " + std::to_string(turn) + " calls " + std::to_string(response.message.tool_calls.size()) +
                    " stop_reason " + call.stop_reason);
  }
  void tool_result(const ToolCall& call, const ToolCallRecord& record, const ToolResult& result) override {
    steps.push_back("tool_result " + call.name + " " + record.decision + (result.is_error ? " error" : " ok"));
  }
  void model_error(const ModelCallRecord& call) override { steps.push_back("model_error " + call.error); }
  void stop(AgentStop stop, const std::string& message) override {
    steps.push_back(std::string("stop ") + to_string(stop) + (message.empty() ? "" : ": " + message));
  }
};

}  // namespace

BOOST_AUTO_TEST_CASE(every_observer_hears_each_step_in_order) {
  folder.write("notes.txt", "hello\n");
  RecordingModel model({calls_tool("c1", "read_file", Json::object().set("path", "notes.txt")), says("done")});
  StepLog first;
  StepLog second;
  const Policy policy = builtin_policy();  // outlives the loop, which keeps a reference
  AgentLoop loop(model, tools, policy, clock, {&first, &second});
  AgentRecord record;
  loop.run("do the task", limits, scope, session, record);
  const std::vector<std::string> expected = {
      "started do the task with 11 tools",
      "request 1 to test/recording of 1 messages",
      "turn 1 calls 1 stop_reason tool_use",
      "tool_result read_file allowed ok",
      "request 2 to test/recording of 3 messages",
      "turn 2 calls 0 stop_reason end_turn",
      "stop end_turn",
  };
  BOOST_TEST(first.steps == expected, boost::test_tools::per_element());
  BOOST_TEST(second.steps == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_failed_model_call_is_heard_as_a_model_error_then_the_stop) {
  RecordingModel model({});
  model.fail_with = "endpoint unreachable";
  StepLog log;
  const Policy policy = builtin_policy();  // outlives the loop, which keeps a reference
  AgentLoop loop(model, tools, policy, clock, {&log});
  AgentRecord record;
  loop.run("do the task", limits, scope, session, record);
  BOOST_TEST(log.steps.back() == "stop model.error: endpoint unreachable");
  BOOST_TEST(log.steps[log.steps.size() - 2] == "model_error endpoint unreachable");
}

BOOST_AUTO_TEST_SUITE_END()

namespace {

/// A review that, like a check that formats the code, rewrites a file and sends the work back once.
class RewritingReview final : public FinishReview {
 public:
  explicit RewritingReview(TempFolder& folder) : m_folder(folder) {}
  std::string name() const override { return "checks"; }
  bool may_change_files() const override { return true; }
  ReviewVerdict review(const std::string&, const ReviewContext&, AgentRecord&) override {
    if (m_sent_back) return ReviewVerdict::accept();
    m_sent_back = true;
    m_folder.write("a.py", "def assist():\n    return 1\n");
    return ReviewVerdict::send_back("the checks failed");
  }

 private:
  TempFolder& m_folder;
  bool m_sent_back = false;
};

/// Diagnostics that keep, for each time they were told the workspace changed, a.py as it was then.
class ToldDiagnostics final : public DiagnosticsChecker {
 public:
  explicit ToldDiagnostics(TempFolder& folder) : m_folder(folder) {}
  EditDiagnostics check_edit(const EditCheckRequest&) override { return {}; }
  std::chrono::milliseconds budget() const override { return std::chrono::milliseconds(1000); }
  void workspace_changed(const WorkspaceRequest&) override { told.push_back(m_folder.read("a.py")); }
  void release_workspace(const std::filesystem::path&) override {}
  std::vector<std::string> told;

 private:
  TempFolder& m_folder;
};

}  // namespace

BOOST_FIXTURE_TEST_SUITE(agent_loop_reviews, LoopFixture)

BOOST_AUTO_TEST_CASE(what_a_review_changed_reaches_the_language_servers_before_the_model_is_asked_again) {
  folder.write("a.py", "def helper():\n    return 1\n");
  ToldDiagnostics diagnostics(folder);
  scope.diagnostics = &diagnostics;
  RewritingReview review(folder);
  RecordingModel model({says("done"), says("fixed")});
  std::vector<std::string> told_before_second_request;
  model.on_call = [&] {
    if (model.received.size() == 2) told_before_second_request = diagnostics.told;
  };
  AgentRequest request;
  request.prompt = "do the task";
  request.limits = limits;
  request.reviews = {&review};
  const Policy policy = builtin_policy();
  AgentLoop loop(model, tools, policy, clock);
  AgentRecord record;
  loop.run(request, scope, session, record);
  BOOST_TEST(record.turns == 2);
  BOOST_REQUIRE_EQUAL(told_before_second_request.size(), 1u);
  BOOST_TEST(told_before_second_request[0] == "def assist():\n    return 1\n");
}

BOOST_AUTO_TEST_SUITE_END()
