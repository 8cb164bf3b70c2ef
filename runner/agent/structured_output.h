#pragma once

#include "agent/finish_review.h"
#include "base/expected.h"
#include "base/json.h"
#include "base/json_schema.h"

#include <string>

namespace agent_run {

/// The JSON value in a final answer: the whole text, or the one ```json fenced block in it.
Expected<Json> answer_json(const std::string& final_text);

/// The task's output_schema as a review: an answer that parses and matches is kept in the record's
/// structured_output; one that does not goes back once with what is wrong; a second one ends the
/// attempt as output.invalid.
class OutputSchemaReview final : public FinishReview {
 public:
  explicit OutputSchemaReview(JsonSchema schema) : m_schema(std::move(schema)) {}

  std::string name() const override { return "output_schema"; }
  ReviewVerdict review(const std::string& final_text, const ReviewContext& context, AgentRecord& record) override;

 private:
  JsonSchema m_schema;
  bool m_corrected = false;  // the one correction was asked for
};

}  // namespace agent_run
