#include "tools/ask_user_answers.h"

#include "base/text.h"

#include <re2/re2.h>

#include <algorithm>
#include <cctype>

namespace agent_run {

namespace {

/// The option `choose` names, spelled as the model wrote it, or `choose` itself as a free answer.
std::string chosen(const std::string& choose, const std::vector<std::string>& options) {
  auto option = std::find_if(options.begin(), options.end(),
                             [&](const std::string& candidate) { return equal_ignoring_case(candidate, choose); });
  return option != options.end() ? *option : choose;
}

}  // namespace

AnswerDecision answer_question(const AskUserAnswers& answers, const std::string& question,
                               const std::vector<std::string>& options) {
  for (std::size_t i = 0; i < answers.rules.size(); ++i) {
    RE2 pattern(answers.rules[i].question, RE2::Quiet);
    if (pattern.ok() && RE2::PartialMatch(question, pattern)) {
      return AnswerDecision{chosen(answers.rules[i].choose, options), "rule", static_cast<int>(i)};
    }
  }
  switch (answers.otherwise) {
    case AnswerFallback::first:
      if (!options.empty()) return AnswerDecision{options.front(), "first", -1};
      return AnswerDecision{std::nullopt, "deny", -1};
    case AnswerFallback::fail: return AnswerDecision{std::nullopt, "fail", -1};
    case AnswerFallback::deny: break;
  }
  return AnswerDecision{std::nullopt, "deny", -1};
}

std::optional<std::string> question_pattern_problem(const std::string& pattern) {
  RE2 compiled(pattern, RE2::Quiet);
  if (compiled.ok()) return std::nullopt;
  return compiled.error();
}

const char* to_string(AnswerFallback fallback) {
  switch (fallback) {
    case AnswerFallback::deny: return "deny";
    case AnswerFallback::first: return "first";
    case AnswerFallback::fail: return "fail";
  }
  return "deny";
}

}  // namespace agent_run
