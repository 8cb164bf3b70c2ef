#include "agent/structured_output.h"

#include "base/text.h"

namespace agent_run {

namespace {

constexpr std::size_t k_problems_shown = 20;

/// The body of the first ``` fence in `text` (its language word dropped), when there is one.
std::optional<std::string_view> fenced_block(std::string_view text) {
  std::size_t open = text.find("```");
  if (open == std::string_view::npos) return std::nullopt;
  std::size_t body = text.find('\n', open);
  if (body == std::string_view::npos) return std::nullopt;
  std::size_t close = text.find("```", body + 1);
  if (close == std::string_view::npos) return std::nullopt;
  return text.substr(body + 1, close - body - 1);
}

}  // namespace

Expected<Json> answer_json(const std::string& final_text) {
  std::string_view text = trim(final_text);
  if (text.empty()) return make_error("the final answer is empty");
  auto whole = parse_json(text);
  if (whole) return whole;
  if (auto block = fenced_block(text)) {
    if (auto fenced = parse_json(trim(*block))) return fenced;
  }
  return make_error("the final answer is not JSON: " + whole.error().message);
}

ReviewVerdict OutputSchemaReview::review(const std::string& final_text, const ReviewContext& context,
                                         AgentRecord& record) {
  std::vector<std::string> problems;
  auto answer = answer_json(final_text);
  if (!answer) problems.push_back(answer.error().message);
  else problems = m_schema.problems(*answer);
  if (problems.empty()) {
    record.structured_output = std::move(*answer);
    return ReviewVerdict::accept();
  }
  if (problems.size() > k_problems_shown) problems.resize(k_problems_shown);
  const std::string listed = "- " + join(problems, "\n- ");
  if (m_corrected || !context.can_go_on) {
    return ReviewVerdict::end(AgentStop::output_invalid,
                              std::string("the final answer does not match the task's output_schema") +
                                  (m_corrected ? ", even after one correction: " : ": ") + join(problems, "; "));
  }
  m_corrected = true;
  return ReviewVerdict::send_back(
      "agent-run: your final answer must be one JSON value matching the task's output_schema (in the system "
      "prompt), and nothing else. What is wrong with it:\n" +
      listed + "\nAnswer again with the corrected JSON only.");
}

}  // namespace agent_run
