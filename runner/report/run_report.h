#pragma once

#include "base/json.h"
#include "report/edit_diagnostics.h"
#include "report/model_call.h"
#include "report/outcome.h"
#include "report/usage.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// One tool call the model made, with the policy's decision and what running it produced.
struct ToolCallRecord {
  int turn = 0;
  std::string id;
  std::string name;
  std::string input_summary;  // short, one line
  std::string decision;       // allowed | denied
  std::string decided_by;     // rule | approval_class | unmatched | protected_path
  std::string rule_id;        // the deciding rule, if one
  std::string reason;
  long long duration_ms = 0;
  std::size_t result_bytes = 0;
  bool is_error = false;
  std::string mcp_server;  // an mcp__SERVER__TOOL call: the server, and the tool by its own name
  std::string mcp_tool;
  std::string error;  // why the call failed without an answer (an MCP server gone, a timeout)
};

/// One `checks:` (or `setup:`) command and how it ended.
struct CheckRecord {
  std::string run;
  bool passed = false;
  int exit_code = -1;
  bool timed_out = false;
  long long duration_ms = 0;
  std::string output_tail;  // the last few KiB, for a person reading why it failed
};

/// One successful edit_file or write_file: the tool fills in the path, the line counts and the
/// diagnostics; answer_call (agent/) the turn and the call.
struct EditRecord {
  int turn = 0;
  std::string tool_call_id;
  std::string tool;
  std::string path;  // workspace-relative
  int lines_added = 0;
  int lines_removed = 0;
  std::optional<EditDiagnostics> diagnostics;  // nullopt: diagnostics were off
  std::vector<CheckRecord> checks;             // the task's `during: edit` checks run after it
};

/// One item of the agent's working plan, as todo_write last sent it.
struct TodoItem {
  std::string content;
  std::string status;  // pending | in_progress | completed
};

/// One ask_user question and how it was answered with no human there.
struct QuestionRecord {
  int turn = 0;
  std::string question;
  std::vector<std::string> options;
  std::string answer;       // what the model was told was chosen; empty when nothing was chosen
  std::string answered_by;  // rule | first | deny | fail
  int rule_index = -1;      // 0-based index in the task's answers: when answered_by == rule
};

/// One process the agent started with `background: true`.
struct BackgroundProcessRecord {
  std::string handle;  // bg1, bg2, ...
  std::string command;
  int pid = 0;
  std::string ended_by;  // exited | process_kill | attempt_end
  int exit_code = -1;    // valid when signal == 0
  int signal = 0;
  std::size_t output_bytes = 0;
  long long duration_ms = 0;
};

/// A process that left its command's process group (setsid, a double fork) and was still alive when
/// the attempt ended, so the runner killed it.
struct EscapedProcessRecord {
  int pid = 0;
  std::string command;
};

/// A path the attempt's sandbox masked after it started: a hidden file that appeared during the run
/// (written by the agent, a background process or setup's daemon) or was first found then.
struct LateMaskRecord {
  std::string path;             // as `masked` shows it
  std::string why;              // what hides it: the rule id, "moved from .env (secrets)", ...
  std::string during;           // agent: for the agent's commands from then on | checks: for the checks
  std::string first_masked_at;  // UTC, ISO 8601: when the first command that masked it started
};

/// A folder of the machine the sandbox showed beside its system folders and the workspace.
struct ShownRecord {
  std::string path;  // where it appeared inside (absolute)
  std::string why;   // "PATH", "GOROOT", "'checks[0]' (`make`)", "sandbox.read (tasks/t.yaml:7)"
  bool writable = false;
};

/// Which sandbox an attempt's commands (bash, background processes, checks) ran in, or why none,
/// and what it kept from them.
struct SandboxRecord {
  std::string kind = "none";        // bubblewrap | none
  std::string why_none;             // "sandbox: off (tasks/t.yaml:9)", "--sandbox off", "unavailable: ..."
  std::string set_by = "default";   // where the setting came from: file:line, --sandbox on|off, default
  std::string network = "off";      // off (a loopback of the attempt's own) | host
  std::string write = "workspace";  // workspace | none | anywhere
  std::string bubblewrap;           // its version
  std::vector<std::string> masked;  // paths made unreadable (the first k_max_listed)
  std::size_t masked_total = 0;
  std::vector<LateMaskRecord> masked_later;  // masked after the start, for later commands (the first k_max_listed)
  std::size_t masked_later_total = 0;
  std::vector<std::string> read_only;  // paths kept read-only inside the workspace (the first k_max_listed)
  std::vector<ShownRecord> shown;      // folders shown beside the system's and the workspace (the first k_max_listed)
  bool survey_complete = true;         // false: the walk of the workspace stopped early
  std::string survey_note;             // why it stopped

  static constexpr std::size_t k_max_listed = 200;
};

/// A changed path the patch leaves out, and why.
struct WithheldPath {
  std::string path;  // workspace-relative
  std::string why;   // "hidden by rule 'secrets'", "read-only: rule 'ci-config'", "read-only: protected path"
};

/// One message an MCP server logged (notifications/message).
struct McpLogRecord {
  std::string level;
  std::string logger;
  std::string text;
};

/// One form an MCP server asked to have filled in (elicitation/create), and how it was answered.
struct McpElicitationRecord {
  std::string message;
  std::string action;       // accept | decline | cancel
  std::string answered_by;  // rule N | first | deny | fail | url | none
  std::string reason;       // why it was declined
};

/// One MCP server of an attempt: how it started, what it offered the model, how it ended.
struct McpServerRecord {
  std::string name;
  std::string transport;  // stdio | http
  bool required = false;
  bool sandboxed = false;   // a stdio server that ran inside the attempt's sandbox
  std::string status;       // connected | failed (its tools were missing)
  std::string error;        // why it failed, or why it was closed early
  std::string server_name;  // what it said about itself at initialize
  std::string server_version;
  std::string protocol_version;
  long long startup_ms = 0;                // start to tools listed
  std::vector<std::string> tools;          // offered to the model, as mcp__SERVER__TOOL
  std::vector<std::string> skipped_tools;  // not offered: "TOOL: why"
  std::string stderr_tail;                 // the last of what a stdio server wrote to stderr
  std::size_t stderr_bytes = 0;
  std::string ending;             // how a stdio server's process ended
  std::vector<McpLogRecord> log;  // its last logging messages
  std::size_t log_count = 0;      // all of them
  std::vector<McpElicitationRecord> elicitations;
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
  long long workspace_ms = 0;  // making the workspace (worktree, copy), before setup
  long long cleanup_ms = 0;    // removing it afterwards
  long long baseline_ms = 0;   // the project gate's checkers on the baseline tree (0: none ran, or all cached)
};

/// The commit a passed attempt's changes went to (the task's `commit:` key).
struct CommitRecord {
  std::string branch;
  std::string sha;
};

/// One thing the agent loop did to keep the conversation inside the model's context window.
struct ContextEvent {
  int turn = 0;                    // the turn whose request needed the room (1-based)
  std::string kind;                // pruned | compacted | compaction_failed | pruned_hard | learnt_window | gave_up
  std::int64_t tokens_before = 0;  // the next request's size, estimated, before
  std::int64_t tokens_after = 0;   // and after
  int results_pruned = 0;          // tool results replaced by a stub
  std::optional<double> cost_usd;  // of the compaction's model call; nullopt: unknown or none
  std::string message;             // why, for a compaction that failed or a window learnt from a refusal
};

/// How the conversation was kept inside the window over the attempt.
struct ContextRecord {
  std::optional<std::int64_t> window;  // the window managed against, tokens; nullopt: never known
  int prunings = 0;
  int compactions = 0;
  int failed_compactions = 0;
  std::vector<ContextEvent> events;
};

/// One round of the task's checks while the agent could still act on them (check_feedback).
struct CheckRound {
  int round = 1;  // 1-based
  int turn = 0;   // the agent's turn that ended before the checks ran
  bool passed = false;
  std::vector<CheckRecord> checks;
  bool fed_back = false;  // the failures went back to the agent for another round
};

/// What the agent loop did in one attempt, as the reports tell it. The loop fills it in as it runs;
/// an AttemptResult is one, so nothing is copied from one shape to another.
struct AgentRecord {
  std::optional<AgentStop> stop_reason;  // how the agent loop ended; nullopt when it did not run
  int turns = 0;
  std::vector<ToolCallRecord> tool_calls;
  std::vector<EditRecord> edits;
  Usage usage = Usage::zero();
  std::vector<ModelCallRecord> model_calls;    // every call to the model, with its usage and failed tries
  std::vector<std::string> warnings;           // what a person should know, e.g. a cost limit not enforced
  std::string final_message;                   // the agent's last words: the text of its last turn
  std::string system_prompt_sha256;            // of the system prompt the model was given (in the transcript)
  std::vector<std::string> instruction_files;  // the project instructions it holds (AGENTS.md, ...)
  ContextRecord context;                       // prunings and compactions
  std::optional<Json> structured_output;       // the final answer, when the task has an output_schema and it matched
  std::vector<CheckRound> check_rounds;        // each round of checks the agent saw (check_feedback)
};

/// One attempt of one task with one model: everything the reports say about it (the agent's part
/// in its AgentRecord).
struct AttemptResult : AgentRecord {
  std::string task_id;
  std::string task_file;
  std::string task_sha256;
  std::string policy_file;    // the policy that decided this attempt's tool calls; empty: built-in
  std::string policy_sha256;  // of that file's content
  std::string model;
  int n = 1;                         // which repeat of the task with this model, from 1: #n, attempts/<task>/<n>
  Outcome outcome = Outcome::error;  // set with outcome_type by set_outcome (batch/attempt_steps.h)
  OutcomeType outcome_type = OutcomeType::runner_crashed;  // until the attempt sets its own
  std::string message;                                     // one line for a person
  std::string started_at;                                  // UTC, ISO 8601
  Durations durations;
  std::vector<CheckRecord> setup;
  std::vector<CheckRecord> checks;
  PatchStats patch;
  std::string transcript_path;            // relative to the report folder
  std::string patch_path;                 // relative to the report folder
  std::string output_path;                // the structured final answer (output.json), relative; empty: none
  std::optional<CommitRecord> commit;     // set when the changes were committed to a branch
  std::vector<TodoItem> todos;            // the agent's plan as todo_write last sent it
  std::vector<QuestionRecord> questions;  // every ask_user call and its answer
  std::vector<BackgroundProcessRecord> background_processes;
  std::vector<EscapedProcessRecord> escaped_processes;  // killed at the end of the attempt
  bool sandboxed = false;                               // bash and background processes ran inside bubblewrap
  SandboxRecord sandbox;                                // which sandbox, or why none
  std::vector<std::string> environment_dropped;  // names of agent-run's environment the agent's commands did not get
  std::vector<WithheldPath> patch_withheld;             // changes left out of patch.diff and the commit
  std::vector<McpServerRecord> mcp_servers;             // the task's MCP servers, started for this attempt
};

/// Which part of a sharded run a report holds (`--shard index/total`, index from 1).
struct ShardRecord {
  int index = 1;
  int total = 1;
};

/// A whole run: what was asked and every attempt finished so far.
struct RunReport {
  std::string runner_version;
  std::string started_at;  // UTC, ISO 8601
  long long duration_ms = 0;
  std::vector<std::string> command_line;
  std::string policy_file;
  std::string policy_sha256;
  bool interrupted = false;
  std::optional<ShardRecord> shard;  // nullopt: not sharded
  std::string price_table_version;   // of the table that priced every call
  std::string price_table_file;      // `built-in` or the --prices path
  std::vector<AttemptResult> attempts;
};

}  // namespace agent_run
