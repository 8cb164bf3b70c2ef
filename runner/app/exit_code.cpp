#include "app/exit_code.h"

#include <algorithm>

namespace agent_run {

ExitCode exit_code_for(const RunReport& report) {
  auto any = [&](Outcome outcome) {
    return std::any_of(report.attempts.begin(), report.attempts.end(),
                       [&](const AttemptResult& attempt) { return attempt.outcome == outcome; });
  };
  if (any(Outcome::failed)) return ExitCode::some_failed;
  if (any(Outcome::error)) return ExitCode::not_judged;
  return ExitCode::all_passed;
}

const char* outcome_word(int exit_code) {
  switch (static_cast<ExitCode>(exit_code)) {
    case ExitCode::all_passed: return "passed";
    case ExitCode::some_failed: return "failed";
    case ExitCode::invalid: return "invalid";
    case ExitCode::not_judged: return "error";
    default: return "interrupted";
  }
}

}  // namespace agent_run
