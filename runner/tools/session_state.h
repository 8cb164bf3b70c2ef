#pragma once

#include "exec/process_table.h"
#include "exec/sandbox.h"
#include "net/web_client.h"
#include "report/run_report.h"
#include "tools/ask_user_answers.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// How the attempt stands, for context_status. The agent loop keeps it current.
struct SessionStatus {
  int turns_used = 0;
  int turns_limit = 0;
  std::int64_t tokens_used = 0;                  // input + output, every turn
  std::optional<std::int64_t> tokens_limit;
  bool tokens_estimated = false;                 // counted by the runner, not reported by a provider
  std::optional<double> cost_usd = 0.0;          // nullopt: the price is unknown
  std::optional<double> cost_limit_usd;
  std::int64_t context_tokens = 0;               // the last request's input, cached input included
  std::optional<std::int64_t> context_window;    // the model's window, when known
  std::chrono::milliseconds elapsed{0};
  std::chrono::milliseconds time_limit{0};
};

/// What the web tools need.
struct WebSettings {
  std::vector<std::string> search_command;  // web_search: custom; `{query}` becomes the query (one argument)
  WebFetchOptions fetch;                    // resolver and caps; tests set a resolver and a route
};

/// A tool's request to end the attempt now, as failed (ask_user with `otherwise: fail`).
struct AttemptEnd {
  AgentStop stop;       // how the agent loop ends, e.g. ask_user_unanswered
  std::string message;  // one line for a person
};

/// The state the process and session tools share within one attempt.
struct SessionState {
  ProcessTable processes;                  // background processes and escapes; all killed at the end
  std::optional<SandboxSpec> sandbox;      // bash and background processes run inside bubblewrap
  std::vector<std::string> secrets;        // environment names the task marks secret: never passed on
  std::vector<TodoItem> todos;             // todo_write's last list
  AskUserAnswers answers;                  // the task's answers:
  std::vector<QuestionRecord> questions;   // every ask_user call
  SessionStatus status;
  WebSettings web;
};

}  // namespace agent_run
