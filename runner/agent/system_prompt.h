#pragma once

#include "agent/limits.h"
#include "base/clock.h"
#include "base/json.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// One file of the project's instructions (AGENTS.md, or a fallback such as CLAUDE.md).
struct ProjectInstructions {
  std::string file;  // as the prompt names it: workspace-relative, or ../AGENTS.md for one above the workspace
  std::string text;  // what fits of the 64 KiB all of them share, with a note where it was cut
};

/// The project's instructions nearest to the workspace, as Codex reads them from the repository's
/// top down to its working folder: in each of `above` (the repository's folders above the workspace,
/// outermost first), then at the workspace root, the first of `names` that is a regular file there
/// (never read through a symlink leading out of its folder). Outermost first, so the nearest, read
/// last, has the last word; 64 KiB in all.
std::vector<ProjectInstructions> read_project_instructions(const std::filesystem::path& workspace,
                                                           const std::vector<std::string>& names,
                                                           const std::vector<std::filesystem::path>& above = {});

/// What the system prompt tells the model about its situation.
struct PromptFacts {
  std::string workspace;           // what it is, e.g. "inventory (a git worktree at HEAD)": no scratch path,
                                   // so the prompt's hash is the same for every attempt of a task
  std::string operating_system;    // e.g. "Linux 6.1.0 x86_64"
  Clock::WallTime now;             // its UTC date is stated
  std::vector<std::string> tools;  // the tools offered, by name
  std::vector<std::string> unavailable;  // what the task offers but is missing, and why (an MCP server that
                                         // did not start): said, so the model does not call them blindly
  Limits limits;
  std::vector<ProjectInstructions> project;  // AGENTS.md files, outermost first
  std::string task_instructions;             // the task's `instructions:`
  std::optional<Json> output_schema;         // the final answer's JSON Schema
};

/// The system prompt and its hash (for the report).
struct SystemPrompt {
  std::string text;
  std::string sha256;
};

/// The built-in system prompt: a run with nobody watching, the environment (workspace, OS, date, the
/// tools by approval class, the limits), then the project's instructions, the task's, and the
/// shape the final answer must have. `replacement` (the task's `system_prompt:`) replaces it all.
SystemPrompt make_system_prompt(const PromptFacts& facts, const std::optional<std::string>& replacement = std::nullopt);

/// The rules of a run with nobody watching: the start of every built-in system prompt.
std::string headless_rules();

/// The operating system as `uname` names it: "Linux 6.1.0-18-amd64 x86_64".
std::string operating_system_name();

}  // namespace agent_run
