#pragma once

#include "report/run_report.h"

namespace agent_run {

/// What agent-run's exit status means; CI can tell "the agent failed" from "the runner could not judge".
enum class ExitCode {
  all_passed = 0,     // every attempt passed
  some_failed = 1,    // at least one attempt failed
  invalid = 2,        // the invocation or a file was invalid; nothing ran
  not_judged = 3,     // none failed, but at least one could not be judged (infrastructure)
  interrupted = 130,  // stopped by SIGINT (128 + 2); SIGTERM gives 143 (128 + 15): 128 + the signal
};

/// The exit code of a run stopped by `signal` (SIGINT, SIGTERM): 128 + the signal, as shells do.
inline int exit_code_for_signal(int signal) {
  return signal > 0 ? 128 + signal : static_cast<int>(ExitCode::interrupted);
}

/// The exit code for a finished run.
ExitCode exit_code_for(const RunReport& report);

/// The run's outcome in one word, from its exit code: passed (0), failed (1), invalid (2), error
/// (3: none failed, one could not be judged) or interrupted (a signal's 128 + N).
const char* outcome_word(int exit_code);

}  // namespace agent_run
