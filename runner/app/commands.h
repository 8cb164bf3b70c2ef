#pragma once

#include "app/cli_options.h"
#include "app/exit_code.h"
#include "app/model_factory.h"

#include <istream>
#include <ostream>
#include <string>
#include <vector>

namespace agent_run {

/// What a subcommand needs from the outside world, gathered by main: no command reads globals.
struct ProgramContext {
  std::vector<std::string> command_line;
  std::vector<std::string> environment;  // already scrubbed of secrets
  char** environ_entries = nullptr;      // agent-run's own environment, secrets included: only for tasks' secrets:
  std::ostream& out;
  std::ostream& err;
  bool out_is_terminal = false;        // stdout is a terminal: live progress lines
  int terminal_width = 100;            // its columns, when it is one
  ModelAccess model_access;            // API endpoints and keys, for model clients only
  std::vector<std::string> variables;  // agent-run's whole environment: ${VAR} in MCP server entries, what was dropped
};

/// `agent-run [run] TASK.yaml...`: loads everything, runs every attempt, writes the reports.
int run_command(const CliOptions& options, const ProgramContext& context);

/// `agent-run validate FILE...`: checks task and policy files without running anything.
int validate_command(const CliOptions& options, const ProgramContext& context);

/// `agent-run merge DIR... --out DIR`: joins report folders (shards, or several runs) into one.
int merge_command(const CliOptions& options, const ProgramContext& context);

/// `agent-run compare BASE HEAD`: what changed between two runs, per task and overall, told apart from noise.
int compare_command(const CliOptions& options, const ProgramContext& context);

/// `agent-run policy explain ...`: prints how a policy decides one tool call.
int policy_explain_command(const CliOptions& options, const ProgramContext& context);

/// `agent-run policy test FILE...`: runs every rule example of each policy and prints the outcomes.
int policy_test_command(const CliOptions& options, const ProgramContext& context);
/// `agent-run config [TASK.yaml]`: each effective setting of the task and where it came from.
int config_command(const CliOptions& options, const ProgramContext& context);

/// `agent-run doctor [--workspace DIR]`: whether a run would work on this machine and project, and what to fix.
int doctor_command(const CliOptions& options, const ProgramContext& context);

/// `agent-run tool --workspace DIR`: runs tool calls read from `in` as the agent would, printing each result.
int tool_command(const CliOptions& options, const ProgramContext& context, std::istream& in);

}  // namespace agent_run
