#pragma once

#include "agent/limits.h"
#include "base/clock.h"
#include "base/json.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// The project's instructions found in the workspace (AGENTS.md, or a fallback such as CLAUDE.md).
struct ProjectInstructions {
  std::string file;  // workspace-relative; empty when none was found
  std::string text;  // capped at 64 KiB, with a note where it was cut
};

/// The first of `names` that is a regular file at the workspace root, read (never through a symlink
/// leading out of the workspace); none found is an empty `file`.
ProjectInstructions read_project_instructions(const std::filesystem::path& workspace,
                                              const std::vector<std::string>& names);

/// What the system prompt tells the model about its situation.
struct PromptFacts {
  std::string workspace;           // what it is, e.g. "inventory (a git worktree at HEAD)": no scratch path,
                                   // so the prompt's hash is the same for every attempt of a task
  std::string operating_system;    // e.g. "Linux 6.1.0 x86_64"
  Clock::WallTime now;             // its UTC date is stated
  std::vector<std::string> tools;  // the tools offered, by name
  Limits limits;
  ProjectInstructions project;        // AGENTS.md
  std::string task_instructions;      // the task's `instructions:`
  std::optional<Json> output_schema;  // the final answer's JSON Schema
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
