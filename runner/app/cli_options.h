#pragma once

#include "base/expected.h"

#include <optional>
#include <string>
#include <vector>

namespace agent_run {

enum class Command { run, validate, help, version };

/// The command line, parsed: which subcommand and its settings.
struct CliOptions {
  Command command = Command::run;
  std::vector<std::string> files;          // task files (run) or task and policy files (validate)
  std::optional<std::string> policy;       // --policy: overrides every task's policy
  std::vector<std::string> models;         // --model, repeatable: overrides every task's model
  std::string out = "agent-run-out";       // --out: the report folder
  std::optional<int> repeat;               // --repeat: overrides every task's repeat
  bool keep_workspaces = false;            // --keep-workspaces
  bool no_diagnostics = false;             // --no-diagnostics: no per-edit diagnostics in this run
};

/// Parses the arguments after the program name. Errors say which argument is wrong and why.
Expected<CliOptions> parse_cli(const std::vector<std::string>& arguments);

/// The --help text, generated from the option table.
std::string usage_text();

}  // namespace agent_run
