#pragma once

#include "exec/sandbox.h"
#include "task/task.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// A program a task runs in its sandbox that the sandbox hides: on this machine it lies under /tmp,
/// /var/tmp or /run, which every sandbox replaces with an empty folder of its own, so inside it is
/// "not found".
struct HiddenProgram {
  std::string where;  // FILE:LINE:COL of the setting, else the task file
  std::string why;    // names the setting, the program, where it is and why the sandbox hides it
  bool mcp_server = false;  // an MCP server's command, else a check's program or checker
};

/// The first program of `task` that resolves on this machine in a folder the sandbox replaces,
/// outside `workspace` (which is bound back; empty: none): a check's command (its first word looked
/// up on `environment`'s PATH, and each word that is an absolute path), a sandboxed stdio MCP
/// server's command and arguments, the checker of a project gate chosen for `root` (empty: not
/// chosen). Nullopt when there is none or `sandbox` is off. Asked by `agent-run validate` (a
/// warning) and, after setup, before the agent's first turn (the attempt ends there).
std::optional<HiddenProgram> program_hidden_by_sandbox(const Task& task, const SandboxSpec& sandbox,
                                                       const std::vector<std::string>& environment,
                                                       const std::filesystem::path& workspace,
                                                       const std::filesystem::path& root);

}  // namespace agent_run
