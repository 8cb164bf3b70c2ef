#include "tools/builtin_tools.h"
#include "tools/tool_input.h"

namespace agent_run {

namespace {

constexpr std::size_t k_max_options = 10;

/// The options of the input, or why they are not a list of 2 to 10 non-empty strings.
Expected<std::vector<std::string>> read_options(const Json& input) {
  const Json* options = input.find("options");
  if (!options || !options->is_array()) return make_error("options must be a list of 2 to 10 choices");
  std::vector<std::string> choices;
  for (const Json& option : options->as_array()) {
    if (!option.is_string() || option.as_string().empty()) return make_error("each option must be a non-empty string");
    choices.push_back(option.as_string());
  }
  if (choices.size() < 2 || choices.size() > k_max_options) return make_error("options must list 2 to 10 choices");
  return choices;
}

/// What the model reads for each way a question can be answered.
std::string answer_text(const AnswerDecision& decision) {
  if (decision.answered_by == "rule") {
    return "Answer: " + *decision.answer + "\n(no human is watching; the task's answers: rule " +
           std::to_string(decision.rule_index + 1) + " gave this answer)\n";
  }
  if (decision.answered_by == "first") {
    return "Answer: " + *decision.answer +
           "\n(no human is watching and no rule matched; the task says to take the first option)\n";
  }
  if (decision.answered_by == "fail") {
    return "No human is available to answer, and the task says a question it has no answer for fails the "
           "attempt. The attempt ends here.\n";
  }
  return "No human is available to answer, and the task has no answer for this question. Decide yourself, carry "
         "on, and say in your final message what you chose and why.\n";
}

/// A multiple-choice question for a human; with none there, the task's answers: rules reply. Never waits.
class AskUserTool final : public Tool {
 public:
  ToolSchema schema() const override {
    Json options = Json::object().set("type", "array").set("items", Json::object().set("type", "string"));
    return ToolSchema{"ask_user",
                      "Put a multiple-choice question to the user when you cannot decide something yourself. This "
                      "runs without a human: the task's own rules answer, or you are told to decide.",
                      object_schema(Json::object()
                                        .set("question", property("string", "The question, in one or two sentences"))
                                        .set("options", std::move(options)),
                                    {"question", "options"})};
  }

  ToolOutput run(const Json& input, const ToolScope& scope, SessionState& session, std::chrono::milliseconds) override {
    auto question = required_string(input, "question");
    if (!question) return failure(question.error().message);
    auto options = read_options(input);
    if (!options) return failure(options.error().message);
    AnswerDecision decision = answer_question(scope.answers, *question, *options);
    session.questions.push_back(QuestionRecord{session.status.turns_used, *question, *options,
                                               decision.answer.value_or(""), decision.answered_by,
                                               decision.rule_index});
    ToolOutput output{answer_text(decision), decision.answered_by == "fail", std::nullopt};
    if (decision.answered_by == "fail") {
      output.ends_attempt =
          AttemptEnd{AgentStop::ask_user_unanswered, "the agent asked \"" + *question +
                                                         "\" and no rule of the task's answers: matched; "
                                                         "its fallback is fail"};
    }
    return output;
  }

 private:
  static ToolOutput failure(const std::string& message) {
    return ToolOutput{tool_error_text("ask_user", message), true, {}};
  }
};

}  // namespace

std::unique_ptr<Tool> make_ask_user_tool() { return std::make_unique<AskUserTool>(); }

}  // namespace agent_run
