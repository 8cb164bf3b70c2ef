#include "batch/attempt_progress.h"
#include "support/fakes.h"

#include <boost/test/unit_test.hpp>

#include <vector>

using namespace agent_run;
using namespace agent_run::test;

BOOST_AUTO_TEST_SUITE(attempt_progress)

BOOST_AUTO_TEST_CASE(phases_and_model_turns_reach_the_sink_with_the_usage_so_far) {
  std::vector<AttemptProgress> heard;
  ProgressSink sink = [&](const AttemptProgress& progress) { heard.push_back(progress); };
  ProgressReporter reporter(sink);
  reporter.phase("agent");
  ModelTurn first = calls_tool("c1", "read_file", Json::object(), 100);
  first.message.tool_calls.push_back(ToolCall{"c2", "grep", Json::object()});
  first.usage.reasoning_tokens = 7;
  first.usage.estimated = true;
  reporter.turn(1, first, ModelCallRecord{});
  ModelTurn second = says("done");
  second.usage.output_tokens = 5;
  second.usage.reasoning_tokens = 3;
  reporter.turn(2, second, ModelCallRecord{});
  BOOST_REQUIRE(heard.size() == 3u);
  BOOST_TEST(heard[0].phase == "agent");
  BOOST_TEST(heard[0].turn == 0);
  BOOST_TEST(heard[1].turn == 1);
  BOOST_TEST(heard[1].activity == "read_file, grep");
  BOOST_TEST(heard[2].phase == "agent");
  BOOST_TEST(heard[2].turn == 2);
  BOOST_TEST(heard[2].activity == "");
  BOOST_TEST(heard[2].usage.input_tokens == 100);
  BOOST_TEST(heard[2].usage.output_tokens == 5);
  BOOST_TEST(heard[2].usage.reasoning_tokens == 10);  // the JSON-parsing version dropped these
  BOOST_TEST(heard[2].usage.estimated);
  BOOST_TEST(heard[2].usage.cost_usd.value() == 0.01);
}

BOOST_AUTO_TEST_CASE(a_phase_clears_the_last_turns_activity) {
  std::vector<AttemptProgress> heard;
  ProgressSink sink = [&](const AttemptProgress& progress) { heard.push_back(progress); };
  ProgressReporter reporter(sink);
  reporter.turn(1, calls_tool("c1", "bash", Json::object()), ModelCallRecord{});
  reporter.phase("checks");
  BOOST_TEST(heard.back().phase == "checks");
  BOOST_TEST(heard.back().activity == "");
  BOOST_TEST(heard.back().turn == 1);
}

BOOST_AUTO_TEST_SUITE_END()
