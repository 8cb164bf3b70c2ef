#include "agent/answer_call.h"
#include "agent/agent_loop.h"
#include "support/fakes.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;
using namespace agent_run::test;

namespace {

const std::string k_gif(
    "GIF89a\x01\0\x01\0\x80\0\0\0\0\0\xff\xff\xff!\xf9\x04\x01\0\0\0\0,\0\0\0\0\x01\0\x01\0\0\x02\x02"
    "D\x01\0;",
    42);

/// A workspace, the built-in tools and a clock that moves 5 ms per tool call.
struct CallFixture {
  TempFolder folder;
  ToolRegistry tools = make_tool_registry(std::nullopt);
  FakeClock clock;
  ToolScope scope;
  SessionState session;
  Limits limits;
  CallFixture() { scope.workspace = folder.path(); }
};

}  // namespace

BOOST_FIXTURE_TEST_SUITE(tool_call, CallFixture)

BOOST_AUTO_TEST_CASE(an_image_reaches_the_model_as_an_image_block) {
  folder.write("shot.gif", k_gif);
  RecordingModel model({calls_tool("c1", "read_file", Json::object().set("path", "shot.gif")), says("I see it")});
  const Policy policy = builtin_policy();  // outlives the loop, which keeps a reference
  AgentLoop loop(model, tools, policy, clock);
  AgentRecord run;
  loop.run("look", limits, scope, session, run);
  const ToolResult& result = model.received.at(1).messages.back().tool_results.at(0);
  BOOST_TEST(result.content == "Image shot.gif (GIF, 42 bytes)\n");
  BOOST_REQUIRE(result.images.size() == 1u);
  BOOST_TEST(result.images[0].media_type == "image/gif");
  BOOST_TEST(result.images[0].data_base64.rfind("R0lGODlh", 0) == 0);  // "GIF89a" in base64
  BOOST_TEST(run.tool_calls.at(0).result_bytes == result.content.size() + result.images[0].data_base64.size());
}

BOOST_AUTO_TEST_CASE(the_report_records_name_summary_duration_size_and_edits) {
  folder.write("src/app.py", "def parse_config():\n    return 1\n");
  Policy policy;
  policy.rules.push_back(Rule{"edits", Verdict::allow, false, {"edit_file"}, "", 1});
  RecordingModel model({calls_tool("c1", "grep", Json::object().set("pattern", "parse_config").set("path", "src")),
                        calls_tool("c2", "read_file", Json::object().set("path", "src/app.py")),
                        calls_tool("c3", "edit_file",
                                   Json::object()
                                       .set("path", "src/app.py")
                                       .set("old", "def parse_config():\n    return 1")
                                       .set("new", "def load_config():\n    value = 1\n    return value")),
                        says("done")});
  AgentLoop loop(model, tools, policy, clock);
  AgentRecord run;
  loop.run("rename", limits, scope, session, run);
  BOOST_REQUIRE(run.tool_calls.size() == 3u);
  BOOST_TEST(run.tool_calls[0].name == "grep");
  BOOST_TEST(run.tool_calls[0].input_summary == "parse_config in src");
  BOOST_TEST(run.tool_calls[0].result_bytes == std::string("src/app.py\n1:def parse_config():\n").size());
  BOOST_TEST(run.tool_calls[2].decision == "allowed");
  BOOST_TEST(run.tool_calls[2].rule_id == "edits");
  BOOST_REQUIRE(run.edits.size() == 1u);
  BOOST_TEST(run.edits[0].path == "src/app.py");
  BOOST_TEST(run.edits[0].lines_added == 3);
  BOOST_TEST(run.edits[0].lines_removed == 2);
}

BOOST_AUTO_TEST_CASE(answer_call_times_the_tool_with_the_clock) {
  struct SlowTool final : Tool {
    FakeClock& clock;
    explicit SlowTool(FakeClock& c) : clock(c) {}
    ToolSchema schema() const override { return ToolSchema{"glob", "", Json::object()}; }
    ToolOutput run(const Json&, const ToolScope&, SessionState&, std::chrono::milliseconds) override {
      clock.advance(std::chrono::milliseconds(250));
      return ToolOutput{"x\n", false, {}, {}};
    }
  };
  ToolRegistry registry;
  registry.add(std::make_unique<SlowTool>(clock));
  AnsweredCall answered = answer_call(ToolCall{"c1", "glob", Json::object().set("pattern", "*.c")}, 4, registry,
                                      builtin_policy(), clock, scope, session, std::chrono::minutes(2));
  BOOST_TEST(answered.record.duration_ms == 250);
  BOOST_TEST(answered.record.turn == 4);
  BOOST_TEST(answered.record.input_summary == "*.c");
  BOOST_TEST(answered.record.decided_by == "approval_class");
  Policy open_policy;
  open_policy.unmatched = Verdict::allow;
  AnsweredCall unknown = answer_call(ToolCall{"c2", "nope", Json::object()}, 4, registry, open_policy, clock, scope,
                                     session, std::chrono::minutes(2));
  BOOST_TEST(unknown.output.content == "There is no tool named 'nope' in this task. The call was not run.");
}

BOOST_AUTO_TEST_SUITE_END()
