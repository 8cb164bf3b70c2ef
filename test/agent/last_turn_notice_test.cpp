#include "agent/agent_loop.h"
#include "agent/last_turn_notice.h"
#include "support/fakes.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;
using namespace agent_run::test;

namespace {

/// A workspace with a.txt and the built-in tools, for a loop that reads a.txt every turn.
struct NoticeFixture {
  TempFolder folder;
  ToolRegistry tools = make_tool_registry(std::nullopt);
  Policy policy = builtin_policy();
  FakeClock clock;
  ToolScope scope;
  SessionState session;
  Limits limits;
  NoticeFixture() {
    scope.workspace = folder.path();
    folder.write("a.txt", "x\n");
  }

  AgentRecord run_loop(RecordingModel& model) {
    AgentLoop loop(model, tools, policy, clock);
    AgentRecord record;
    loop.run("do the task", limits, scope, session, record);
    return record;
  }
};

ModelTurn reads(int turn, std::int64_t tokens = 10) {
  return calls_tool("c" + std::to_string(turn), "read_file", Json::object().set("path", "a.txt"), tokens);
}

/// How many of the requests' last messages carry `text`, and the 1-based request of the first.
std::pair<int, int> requests_with(const RecordingModel& model, const std::string& text) {
  int count = 0, first = 0;
  for (std::size_t i = 0; i < model.received.size(); ++i) {
    if (model.received[i].messages.back().text.find(text) == std::string::npos) continue;
    if (++count == 1) first = static_cast<int>(i) + 1;
  }
  return {count, first};
}

}  // namespace

BOOST_FIXTURE_TEST_SUITE(last_turn_notice, NoticeFixture)

BOOST_AUTO_TEST_CASE(the_agent_is_told_once_before_its_last_turn) {
  limits.turns = 4;
  RecordingModel model({reads(1), reads(2), reads(3), reads(4)});
  AgentRecord record = run_loop(model);
  BOOST_TEST(record.turns == 4);
  auto [count, first] = requests_with(model, "this is your last turn (4 of 4)");
  BOOST_TEST(count == 1);
  BOOST_TEST(first == 4);
}

BOOST_AUTO_TEST_CASE(the_agent_is_told_when_most_of_its_token_budget_is_spent) {
  limits.turns = 50;
  limits.tokens = 1000;
  RecordingModel model({reads(1, 300), reads(2, 300), reads(3, 350), reads(4, 10), says("done")});
  run_loop(model);
  auto [count, first] = requests_with(model, "of this attempt's token budget is spent");
  BOOST_TEST(count == 1);
  BOOST_TEST(first == 4);  // after 950 of 1000 tokens (turn 3), not before
}

BOOST_AUTO_TEST_CASE(no_notice_when_it_is_turned_off_or_the_budget_is_far_from_spent) {
  LastTurnNotice off(LastTurnNoticeSettings{false, 0.9});
  limits.turns = 2;
  AgentRecord record;
  BOOST_TEST(!off.due(2, limits, record, std::chrono::milliseconds(0)).has_value());
  LastTurnNotice on(LastTurnNoticeSettings{});
  limits.turns = 10;
  BOOST_TEST(!on.due(2, limits, record, std::chrono::milliseconds(0)).has_value());
}

BOOST_AUTO_TEST_SUITE_END()
