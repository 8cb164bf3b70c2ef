#pragma once

#include "agent/agent_settings.h"
#include "agent/limits.h"
#include "base/json.h"
#include "diagnostics/project_checkers.h"
#include "exec/sandbox.h"
#include "mcp/server_spec.h"
#include "model/scripted_turn.h"
#include "tools/ask_user_answers.h"
#include "workspace/workspace_spec.h"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// The command `web_search: custom` runs when the task names none: ddgs (pip install ddgs).
std::vector<std::string> default_web_search_command();

/// The files of project instructions looked for at the workspace root, in order: AGENTS.md, then CLAUDE.md.
std::vector<std::string> default_instruction_files();

/// One variable of `env:` (the task's or the configuration's): set for setup, the agent's commands and
/// the checks; a name listed under `secrets:` goes to setup and the checks only.
struct EnvVariable {
  std::string value;
  std::string origin;  // FILE:LINE:COL where it was set
};

/// One entry of the task file's `checks:` list: what makes an attempt pass.
struct Check {
  std::string run;                  // a shell command run in the workspace after the agent stops; exit 0 = passed
  bool no_new_diagnostics = false;  // instead of `run`: the edits left no problem they introduced
  bool after_edits = false;         // `during: edit`: also run after each edit_file/write_file, told to the agent
  std::optional<ProjectCheckerChoice> project;  // `no_new_diagnostics: project`: the whole project's checker
};

/// Where a passed attempt's changes are committed (the task file's `commit:` key): a branch of the
/// task's repository, created or moved to a commit whose parent is the attempt's starting point.
/// `{id}`, `{n}` (the repeat, from 1) and `{model}` in either are replaced per attempt.
struct CommitSpec {
  std::string branch;
  std::string message;  // default: the description, else "agent-run: {id}"
};

/// A task file, loaded and validated: what to do, where, with which model, limits and checks.
struct Task {
  std::string id;                // default: the file's stem; unique in a run
  std::filesystem::path source;  // the task file
  std::string source_sha256;     // hash of the file's content, for resume and reports
  std::string description;
  std::string prompt;
  WorkspaceSpec workspace;
  std::vector<std::string> setup;  // shell commands run before the agent; a failure is an error
  std::string model = "script";    // provider/name, `script`, or `replay` (played back from `replay`)
  std::optional<std::filesystem::path> replay;  // with `model: replay`: the report folder of a --record run, absolute
  Limits limits;
  std::optional<std::vector<std::string>> tools;  // nullopt: every tool but web_*
  std::optional<std::filesystem::path> policy;    // absolute; overridden by --policy
  bool diagnostics = true;
  std::vector<Check> checks;
  int repeat = 1;
  std::vector<ScriptedTurn> script;          // the scripted model's turns
  std::optional<CommitSpec> commit;          // nullopt: the changes stay in patch.diff only
  AskUserAnswers answers;                    // how ask_user is answered without a human
  std::optional<SandboxSpec> sandbox;        // bash and background processes run inside bubblewrap
  std::vector<std::string> secrets;          // environment names the agent's commands never see
  std::vector<std::string> web_search;       // `web_search: custom`: the search command; empty: no web_search
  std::map<std::string, EnvVariable> env;    // NAME -> value for setup, the agent's commands and the checks
  std::optional<std::string> system_prompt;  // replaces the built-in system prompt entirely
  std::string instructions;                  // added to the system prompt after the project's instructions
  std::vector<std::string> instruction_files = default_instruction_files();  // the first found at the workspace root
  ContextSettings context;                                                   // pruning and compaction
  CheckFeedback check_feedback;                                              // failed checks go back to the agent
  std::optional<Json> output_schema;                                         // JSON Schema the final answer must match
  std::vector<McpServerSpec> mcp_servers;      // each server's tools are mcp__NAME__TOOL for the model
  std::map<std::string, std::string> origins;  // setting (e.g. limits.turns) -> FILE:LINE:COL; absent: built-in
  std::vector<std::string> warnings;           // FILE:LINE:COL: warning: ... found while loading, for the console
};

}  // namespace agent_run
