#pragma once

#include "app/cli_options.h"
#include "app/exit_code.h"

#include <ostream>
#include <string>
#include <vector>

namespace agent_run {

/// What a subcommand needs from the outside world, gathered by main: no command reads globals.
struct ProgramContext {
  std::vector<std::string> command_line;
  std::vector<std::string> environment;   // already scrubbed of secrets
  std::ostream& out;
  std::ostream& err;
  bool out_is_terminal = false;           // stdout is a terminal: live progress lines
  int terminal_width = 100;               // its columns, when it is one
};

/// `agent-run [run] TASK.yaml...`: loads everything, runs every attempt, writes the reports.
int run_command(const CliOptions& options, const ProgramContext& context);

/// `agent-run validate FILE...`: checks task and policy files without running anything.
int validate_command(const CliOptions& options, const ProgramContext& context);

/// `agent-run merge DIR... --out DIR`: joins report folders (shards, or several runs) into one.
int merge_command(const CliOptions& options, const ProgramContext& context);

}  // namespace agent_run
