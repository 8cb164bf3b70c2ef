#include "agent/agent_loop.h"
#include "support/fakes.h"
#include "support/fixtures.h"
#include "tools/tool_registry.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;
using namespace agent_run::test;

namespace {

Json question(const std::string& text, std::vector<std::string> options) {
  Json::Array choices;
  for (auto& option : options) choices.emplace_back(option);
  return Json::object().set("question", text).set("options", Json(std::move(choices)));
}

struct AskFixture {
  ToolRegistry tools = make_tool_registry(std::nullopt);
  ToolScope scope;
  SessionState session;
  AskFixture() {
    scope.answers.rules = {AnswerRule{"(?i)which python", "3.11"}, AnswerRule{"(?i)^delete", "no"},
                           AnswerRule{"(?i)name the branch", "agent/refactor"}};
    session.status.turns_used = 3;
  }
  ToolOutput ask(const std::string& text, std::vector<std::string> options) {
    return tools.find("ask_user")->run(question(text, std::move(options)), scope, session, std::chrono::minutes(2));
  }
};

}  // namespace

BOOST_FIXTURE_TEST_SUITE(ask_user_tool, AskFixture)

BOOST_AUTO_TEST_CASE(a_matching_rule_picks_an_option_spelled_as_the_model_wrote_it) {
  ToolOutput output = ask("Delete the old config files?", {"Yes", "No"});
  BOOST_TEST(!output.is_error);
  BOOST_TEST(output.content == "Answer: No\n(no human is watching; the task's answers: rule 2 gave this answer)\n");
  BOOST_REQUIRE_EQUAL(session.questions.size(), 1u);
  const QuestionRecord& record = session.questions[0];
  BOOST_TEST(record.turn == 3);
  BOOST_TEST(record.question == "Delete the old config files?");
  BOOST_TEST((record.options == std::vector<std::string>{"Yes", "No"}));
  BOOST_TEST(record.answer == "No");
  BOOST_TEST(record.answered_by == "rule");
  BOOST_TEST(record.rule_index == 1);
}

BOOST_AUTO_TEST_CASE(a_rule_may_answer_with_a_text_that_is_no_option) {
  ToolOutput output = ask("Please name the branch to use", {"main", "develop"});
  BOOST_TEST(output.content.starts_with("Answer: agent/refactor\n"));
  BOOST_TEST(session.questions.at(0).answer == "agent/refactor");
}

BOOST_AUTO_TEST_CASE(fallback_deny_tells_the_model_to_decide) {
  ToolOutput output = ask("Use tabs or spaces?", {"tabs", "spaces"});
  BOOST_TEST(!output.is_error);
  BOOST_TEST(!output.ends_attempt.has_value());
  BOOST_TEST(output.content ==
             "No human is available to answer, and the task has no answer for this question. Decide yourself, carry "
             "on, and say in your final message what you chose and why.\n");
  BOOST_TEST(session.questions.at(0).answered_by == "deny");
  BOOST_TEST(session.questions.at(0).answer == "");
}

BOOST_AUTO_TEST_CASE(fallback_first_picks_the_first_option) {
  scope.answers.otherwise = AnswerFallback::first;
  ToolOutput output = ask("Use tabs or spaces?", {"tabs", "spaces"});
  BOOST_TEST(output.content ==
             "Answer: tabs\n(no human is watching and no rule matched; the task says to take the first option)\n");
  BOOST_TEST(session.questions.at(0).answered_by == "first");
  BOOST_TEST(session.questions.at(0).answer == "tabs");
}

BOOST_AUTO_TEST_CASE(fallback_fail_ends_the_attempt_with_a_clear_type) {
  scope.answers.otherwise = AnswerFallback::fail;
  ToolOutput output = ask("Use tabs or spaces?", {"tabs", "spaces"});
  BOOST_TEST(output.is_error);
  BOOST_REQUIRE(output.ends_attempt.has_value());
  BOOST_TEST((output.ends_attempt->stop == AgentStop::ask_user_unanswered));
  BOOST_TEST(
      output.ends_attempt->message ==
      "the agent asked \"Use tabs or spaces?\" and no rule of the task's answers: matched; its fallback is fail");
  BOOST_TEST(session.questions.at(0).answered_by == "fail");
  BOOST_TEST(!ask("Which Python should I target?", {"3.10", "3.11"}).ends_attempt.has_value());  // rules still answer
}

BOOST_AUTO_TEST_CASE(a_question_needs_two_to_ten_options) {
  BOOST_TEST(ask("Ok?", {"yes"}).content == "ask_user: options must list 2 to 10 choices");
  BOOST_TEST(ask("Ok?", {"yes", ""}).content == "ask_user: each option must be a non-empty string");
  BOOST_TEST(session.questions.empty());
}

BOOST_AUTO_TEST_CASE(in_the_agent_loop_fail_stops_at_once_and_skips_the_rest_of_the_turn) {
  TempFolder folder;
  scope.workspace = folder.path();
  scope.answers.otherwise = AnswerFallback::fail;
  ModelTurn turn = calls_tool("c1", "ask_user", question("Deploy to production?", {"yes", "no"}));
  turn.message.tool_calls.push_back(ToolCall{"c2", "todo_write", Json::object().set("todos", Json::array())});
  RecordingModel model({turn, says("should not be asked")});
  FakeClock clock;
  const Policy policy = builtin_policy();  // outlives the loop, which keeps a reference
  AgentLoop loop(model, tools, policy, clock);
  AgentRecord run;
  AgentRun last = loop.run("ship it", Limits{}, scope, session, run);
  BOOST_TEST((run.stop_reason == AgentStop::ask_user_unanswered));
  BOOST_TEST(last.message.find("Deploy to production?") != std::string::npos);
  BOOST_TEST(model.received.size() == 1u);  // the model is not asked again
  BOOST_TEST(run.tool_calls.size() == 1u);  // c2 was not run
  BOOST_TEST(session.questions.size() == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
