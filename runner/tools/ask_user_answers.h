#pragma once

#include "base/expected.h"

#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// What ask_user does when no rule of the task's `answers:` matches the question.
enum class AnswerFallback {
  deny,   // tell the model no human is available and it must decide (the default)
  first,  // pick the first option
  fail,   // end the attempt as failed
};

/// One `{question: RE2, choose: TEXT}` entry of the task's `answers:`.
struct AnswerRule {
  std::string question;  // RE2, searched for anywhere in the question
  std::string choose;    // an option (matched without regard to case) or a free-text answer
};

/// The task's `answers:` key: how ask_user is answered without a human.
struct AskUserAnswers {
  std::vector<AnswerRule> rules;
  AnswerFallback otherwise = AnswerFallback::deny;
};

/// How one question was answered.
struct AnswerDecision {
  std::optional<std::string> answer;  // nullopt: nothing was chosen (deny or fail)
  std::string answered_by;            // rule | first | deny | fail
  int rule_index = -1;                // the matching rule, when answered_by == rule
};

/// Answers `question` by the first rule whose pattern it matches, else by the fallback.
AnswerDecision answer_question(const AskUserAnswers& answers, const std::string& question,
                               const std::vector<std::string>& options);

/// Why `pattern` is not a valid RE2 expression, or nullopt when it is.
std::optional<std::string> question_pattern_problem(const std::string& pattern);

const char* to_string(AnswerFallback fallback);

}  // namespace agent_run
