#pragma once

#include "exec/sandbox.h"
#include "exec/shown_folders.h"
#include "task/task.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// A program or file that a task's checks, project gates or sandboxed stdio MCP servers run in the
/// sandbox, as found on this machine.
struct TaskProgram {
  std::filesystem::path path;  // absolute: found on PATH, or named by the command
  std::string setting;         // "checks[0] (`make test`)", "the MCP server 'fs'", ...
  std::string where;           // FILE:LINE:COL of the setting, else the task file
  bool mcp_server = false;     // an MCP server's command, else a check's program or checker
};

/// The programs and files `task` runs in its sandbox: each check's program (its first word looked up
/// on `environment`'s PATH) and each of its words that is an absolute path that exists, the checker
/// of each project gate chosen for `root` (empty: none chosen), each sandboxed stdio MCP server's
/// command and arguments the same way, and its absolute `cwd`.
std::vector<TaskProgram> task_programs(const Task& task, const std::vector<std::string>& environment,
                                       const std::filesystem::path& root);

/// The folders a sandbox for `task` shows beside the system's tree and the folders of the programs
/// on PATH (exec/shown_folders): the folders of task_programs, of the PATH and tool roots the task's
/// `env:` sets, and `spec`'s `read` (read-only) and `read_write` folders, `~/` being `home`.
std::vector<ShownFolder> task_shown_folders(const Task& task, const SandboxSpec& spec,
                                            const std::vector<std::string>& environment,
                                            const std::filesystem::path& root,
                                            const std::optional<std::filesystem::path>& home);

}  // namespace agent_run
