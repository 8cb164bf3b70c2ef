#pragma once

#include "diagnostics/edit_diagnostics.h"
#include "report/usage.h"

#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// The outcome of one attempt; maps one to one onto JUnit (none, <failure>, <error>, <skipped>).
enum class Outcome { passed, failed, error, skipped };

/// One tool call the model made, with the policy's decision and what running it produced.
struct ToolCallRecord {
  int turn = 0;
  std::string id;
  std::string name;
  std::string input_summary;   // short, one line
  std::string decision;        // allowed | denied
  std::string decided_by;      // rule | approval_class | unmatched | protected_path
  std::string rule_id;         // the deciding rule, if one
  std::string reason;
  long long duration_ms = 0;
  std::size_t result_bytes = 0;
  bool is_error = false;
};

/// One successful edit_file or write_file.
struct EditRecord {
  int turn = 0;
  std::string tool_call_id;
  std::string tool;
  std::string path;
  int lines_added = 0;
  int lines_removed = 0;
  std::optional<EditDiagnostics> diagnostics;  // nullopt: diagnostics were off
};

/// One `checks:` (or `setup:`) command and how it ended.
struct CheckRecord {
  std::string run;
  bool passed = false;
  int exit_code = -1;
  bool timed_out = false;
  long long duration_ms = 0;
  std::string output_tail;     // the last few KiB, for a person reading why it failed
};

/// Size of what the agent changed in its workspace.
struct PatchStats {
  int files_changed = 0;
  int lines_added = 0;
  int lines_removed = 0;
};

/// Where an attempt's time went.
struct Durations {
  long long total_ms = 0;
  long long setup_ms = 0;
  long long model_ms = 0;
  long long tools_ms = 0;
  long long checks_ms = 0;
};

/// One attempt of one task with one model: everything the reports say about it.
struct AttemptResult {
  std::string task_id;
  std::string task_file;
  std::string task_sha256;
  std::string model;
  int repeat_index = 0;                  // 0-based
  Outcome outcome = Outcome::error;
  std::string outcome_type;              // machine-readable: check.failed, limit.turns, setup.failed, ...
  std::string message;                   // one line for a person
  std::string started_at;                // UTC, ISO 8601
  std::string stop_reason;               // how the agent loop ended: end_turn, limit.turns, ...
  int turns = 0;
  std::vector<ToolCallRecord> tool_calls;
  std::vector<EditRecord> edits;
  Usage usage;
  Durations durations;
  std::vector<CheckRecord> setup;
  std::vector<CheckRecord> checks;
  PatchStats patch;
  std::string transcript_path;           // relative to the report folder
  std::string patch_path;                // relative to the report folder
};

/// A whole run: what was asked and every attempt finished so far.
struct RunReport {
  std::string runner_version;
  std::string started_at;                // UTC, ISO 8601
  long long duration_ms = 0;
  std::vector<std::string> command_line;
  std::string policy_file;
  std::string policy_sha256;
  bool interrupted = false;
  std::vector<AttemptResult> attempts;
};

const char* to_string(Outcome outcome);

}  // namespace agent_run
