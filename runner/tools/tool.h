#pragma once

#include "base/json.h"
#include "exec/attempt_sandbox.h"
#include "exec/mount_survey.h"
#include "net/web_client.h"
#include "report/outcome.h"
#include "report/run_report.h"
#include "tools/ask_user_answers.h"
#include "tools/session_state.h"
#include "tools/tool_call.h"

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace agent_run {

class Cancellation;
class DiagnosticsChecker;
class EditChecks;

/// A tool's request to end the attempt now, as failed (ask_user with `otherwise: fail`).
struct AttemptEnd {
  AgentStop stop;       // how the agent loop ends, e.g. ask_user_unanswered
  std::string message;  // one line for a person
};

/// What a tool returns: the text the model reads, and facts for the report.
struct ToolOutput {
  std::string content;
  bool is_error = false;
  std::optional<EditRecord> edit;          // what an edit_file or write_file call changed
  std::vector<ImageBlock> images;          // pictures the model can look at (read_file on an image)
  std::optional<AttemptEnd> ends_attempt;  // set by a tool that ends the attempt (ask_user's `fail`)
  std::string error;                       // why the call failed without an answer (an MCP server gone, a timeout)
};

/// Which search the grep tool runs: ripgrep when it is on PATH (automatic), or one of the two always.
enum class GrepBackend { automatic, ripgrep, builtin };

/// What the web tools need.
struct WebSettings {
  std::vector<std::string> search_command;  // web_search: custom; `{query}` becomes the query (one argument)
  WebFetchOptions fetch;                    // resolver and caps; tests set a resolver and a route
};

/// What the tools of one attempt may read and never change: where they work, what they must not
/// touch and how their children run. Built once per attempt, the same way for a run and for
/// `agent-run tool` (make_tool_scope, batch/attempt_session.h); what the tools change is their
/// SessionState.
struct ToolScope {
  std::filesystem::path workspace;                     // every path resolves inside this folder
  std::vector<std::filesystem::path> protected_paths;  // never written, whatever the policy says
  std::vector<std::string> environment;                // KEY=VALUE for child processes, secrets scrubbed
  std::vector<std::string> secrets;                    // the task's secret names: bash never passes them on
  const Cancellation* cancellation = nullptr;          // the run's stop request: kill what runs, start nothing new
  const AttemptSandbox* sandbox = nullptr;             // bash and background processes run inside it; nullptr: off
  const Survey* survey = nullptr;                      // what the policy hides and keeps read-only, surveyed; null: none
  std::function<std::string(std::string_view)> hidden_rule;  // the rule hiding a walked workspace-relative path, or ""
                                                             // (policy/scope_context: hidden_rule_lookup)
  GrepBackend grep_backend = GrepBackend::automatic;   // AGENT_RUN_GREP=builtin forces the built-in search
  DiagnosticsChecker* diagnostics = nullptr;           // per-edit diagnostics; nullptr: off
  EditChecks* edit_checks = nullptr;                   // the task's `during: edit` checks; nullptr: none
  AskUserAnswers answers;                              // the task's answers:, for ask_user
  WebSettings web;                                     // web_search's command, web_fetch's resolver and caps
};

/// One tool the agent can call. Implementations live one per file in tools/.
class Tool {
 public:
  virtual ~Tool() = default;
  /// The name, description and JSON schema the model sees.
  virtual ToolSchema schema() const = 0;
  /// Runs one call within `timeout` (the task's tool timeout, or what is left of the attempt's
  /// time). Bad input and refusals are results the model reads (is_error), never exceptions.
  virtual ToolOutput run(const Json& input, const ToolScope& scope, SessionState& session,
                         std::chrono::milliseconds timeout) = 0;
};

}  // namespace agent_run
