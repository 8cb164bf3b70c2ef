#pragma once

#include "report/outcome.h"
#include "report/run_report.h"

#include <optional>
#include <string>

namespace agent_run {

/// What a review of the agent's finished work decides.
struct ReviewVerdict {
  enum class Kind {
    accept,       // the next review, or the end of the loop
    send_back,    // `message` goes to the agent as a user message, and the loop goes on
    end_attempt,  // the loop ends with `stop`
  };
  Kind kind = Kind::accept;
  std::string message;  // send_back: for the model; end_attempt: for a person
  AgentStop stop = AgentStop::end_turn;

  static ReviewVerdict accept() { return {}; }
  static ReviewVerdict send_back(std::string message) { return {Kind::send_back, std::move(message)}; }
  static ReviewVerdict end(AgentStop stop, std::string message) {
    return {Kind::end_attempt, std::move(message), stop};
  }
};

/// When a review looks at the agent's work.
struct ReviewContext {
  int turn = 0;           // the turn the model ended
  bool can_go_on = true;  // the limits leave room for another turn: a review may send the work back
};

/// Looks at the agent's work when the model ends its turn, before the loop stops: the structured
/// answer's schema (agent/), the task's checks with check_feedback (batch/). Reviews run in order;
/// the first that does not accept decides.
class FinishReview {
 public:
  virtual ~FinishReview() = default;
  /// A name for the transcript: `output_schema`, `checks`.
  virtual std::string name() const = 0;
  /// Whether the review runs commands that may change the workspace (a formatter in the checks,
  /// generated code): the warm language servers are told of changes after such a review only.
  virtual bool may_change_files() const { return false; }
  /// `final_text` is the model's last message; `record` the attempt's so far. With
  /// `context.can_go_on` false, sending back is not possible: the review accepts or ends.
  virtual ReviewVerdict review(const std::string& final_text, const ReviewContext& context, AgentRecord& record) = 0;
};

}  // namespace agent_run
