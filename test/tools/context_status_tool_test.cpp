#include "agent/agent_loop.h"
#include "support/fakes.h"
#include "support/fixtures.h"
#include "tools/tool_registry.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;
using namespace agent_run::test;

BOOST_AUTO_TEST_SUITE(context_status_tool)

BOOST_AUTO_TEST_CASE(it_reports_the_window_turns_tokens_cost_and_time_against_the_limits) {
  ToolRegistry tools = make_tool_registry(std::nullopt);
  ToolScope scope;
  SessionState session;
  SessionStatus& status = session.status;
  status.turns_used = 4;
  status.turns_limit = 30;
  status.tokens_used = 50000;
  status.tokens_limit = 400000;
  status.cost_usd = 0.1234;
  status.cost_limit_usd = 2.0;
  status.context_tokens = 12000;
  status.context_window = 200000;
  status.elapsed = std::chrono::seconds(80);
  status.time_limit = std::chrono::minutes(15);
  BOOST_TEST(tools.find("context_status")->run(Json::object(), scope, session, std::chrono::minutes(2)).content ==
             "context: 12000 of 200000 tokens (6%) in the last request\n"
             "turns: 4 used of 30, 26 left\n"
             "tokens: 50000 used of 400000, 350000 left\n"
             "cost: $0.1234 of $2.0000\n"
             "time: 1m20s of 15m\n");
  status.context_window.reset();
  status.tokens_limit.reset();
  status.tokens_estimated = true;
  status.cost_usd.reset();
  BOOST_TEST(tools.find("context_status")->run(Json::object(), scope, session, std::chrono::minutes(2)).content ==
             "context: 12000 tokens in the last request; the model's window is not known\n"
             "turns: 4 used of 30, 26 left\n"
             "tokens: 50000 used; no token limit (estimated)\n"
             "cost: unknown (no price for this model)\n"
             "time: 1m20s of 15m\n");
}

BOOST_AUTO_TEST_CASE(the_agent_loop_keeps_the_status_current) {
  TempFolder folder;
  ToolRegistry tools = make_tool_registry(std::nullopt);
  FakeClock clock;
  ToolScope scope;
  SessionState session;
  scope.workspace = folder.path();
  Limits limits;
  limits.turns = 5;
  limits.tokens = 1000;
  limits.cost_usd = 1.0;
  limits.time = std::chrono::minutes(10);
  RecordingModel model({calls_tool("c1", "todo_write", Json::object().set("todos", Json::array()), 100),
                        calls_tool("c2", "context_status", Json::object(), 300), says("done")});
  model.on_call = [&] { clock.advance(std::chrono::seconds(30)); };
  const Policy policy = builtin_policy();  // outlives the loop, which keeps a reference
  AgentLoop loop(model, tools, policy, clock);
  AgentRecord run;
  loop.run("plan", limits, scope, session, run);
  BOOST_TEST((run.stop_reason == AgentStop::end_turn));
  const ToolResult& status = model.received.at(2).messages.back().tool_results.at(0);
  BOOST_TEST(status.content ==
             "context: 300 tokens in the last request; the model's window is not known\n"
             "turns: 2 used of 5, 3 left\n"
             "tokens: 400 used of 1000, 600 left\n"
             "cost: $0.0200 of $1.0000\n"
             "time: 1m of 10m\n");
}

BOOST_AUTO_TEST_SUITE_END()
