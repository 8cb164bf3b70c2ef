#pragma once

#include "base/json.h"
#include "report/run_report.h"
#include "tools/tool_call.h"
#include "tools/session_state.h"

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace agent_run {

class Cancellation;

class DiagnosticsChecker;

/// What a tool returns: the text the model reads, and facts for the report.
struct ToolOutput {
  std::string content;
  bool is_error = false;
  std::optional<EditRecord> edit;   // what an edit_file or write_file call changed
  std::vector<ImageBlock> images;   // pictures the model can look at (read_file on an image)
  std::optional<AttemptEnd> ends_attempt;  // set by a tool that ends the attempt (ask_user's `fail`)
};

/// Which search the grep tool runs: ripgrep when it is on PATH (automatic), or one of the two always.
enum class GrepBackend { automatic, ripgrep, builtin };

/// The state one attempt's tools share: where they may work and what they have seen.
struct ToolContext {
  std::filesystem::path workspace;                      // every path resolves inside this folder
  std::vector<std::filesystem::path> protected_paths;   // never written, whatever the policy says
  std::chrono::milliseconds timeout{std::chrono::minutes(2)};
  std::vector<std::string> environment;                 // KEY=VALUE for child processes, secrets scrubbed
  std::map<std::string, std::string> reads;             // workspace-relative path -> hash of what read_file saw
  const Cancellation* cancellation = nullptr;           // the run's stop request: kill what runs, start nothing new
  SessionState session;                                 // processes, todos, questions, status, web settings
  GrepBackend grep_backend = GrepBackend::automatic;    // AGENT_RUN_GREP=builtin forces the built-in search
  DiagnosticsChecker* diagnostics = nullptr;            // per-edit diagnostics; nullptr: off
};

/// One tool the agent can call. Implementations live one per file in tools/.
class Tool {
 public:
  virtual ~Tool() = default;
  /// The name, description and JSON schema the model sees.
  virtual ToolSchema schema() const = 0;
  /// Runs one call. Bad input and refusals are results the model reads (is_error), never exceptions.
  virtual ToolOutput run(const Json& input, ToolContext& context) = 0;
};

}  // namespace agent_run
