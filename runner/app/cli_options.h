#pragma once

#include "base/expected.h"
#include "batch/run_budget.h"
#include "report/run_comparison.h"
#include "report/run_report.h"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace agent_run {

enum class Command { run, validate, help, version, merge, compare, policy_explain, policy_test, tool, config, mcp, doctor };

/// What a run prints on stdout: progress lines for a person, or one JSON event a line for a program.
enum class OutputFormat { text, stream_json };

/// The command line, parsed: which subcommand and its settings.
struct CliOptions {
  Command command = Command::run;
  std::vector<std::string> files;        // task files (run) or task and policy files (validate)
  std::optional<std::string> policy;     // --policy: overrides every task's policy
  std::vector<std::string> models;       // --model, repeatable: overrides every task's model
  std::string out = "agent-run-out";     // --out: the report folder
  std::optional<int> repeat;             // --repeat: overrides every task's repeat
  bool keep_workspaces = false;          // --keep-workspaces
  bool out_given = false;                // --out was on the command line (merge requires it)
  int jobs = 1;                          // -j, --jobs: attempts at once
  std::optional<ShardRecord> shard;      // --shard I/N
  std::vector<std::string> filters;      // --filter GLOB, repeatable: task ids to run
  bool require_checks = false;           // --require-checks: a task file without checks is an error
  bool mcp = false;                      // validate --mcp: start the tasks' MCP servers, check calls of their tools
  bool resume = false;                   // --resume: run only what the --out folder's report lacks
  bool quiet = false;                    // --quiet: only the closing summary
  bool verbose = false;                  // --verbose: every turn and each attempt's details
  std::optional<std::string> prices;     // --prices: the price table instead of the built-in one
  std::optional<int> max_output_tokens;  // --max-output-tokens: per model call
  std::optional<double> temperature;     // --temperature
  std::optional<int> model_retries;      // --model-retries: tries after the first on transient API errors
  std::optional<std::chrono::milliseconds> model_idle_timeout;  // --model-idle-timeout: silence that fails a try
  std::optional<std::string> tool;                              // --tool: policy explain's tool name
  std::optional<std::string> input;                             // --input: policy explain's tool input, as JSON
  std::optional<std::string> task;          // --task: the task file whose attempt `agent-run tool` stands in for
  std::optional<std::string> workspace;     // --workspace: the folder `agent-run tool` works in, and where
                                            // policy explain resolves paths (default: .)
  bool json = false;                        // --json: `agent-run tool` prints one JSON object per call
  bool no_diagnostics = false;              // --no-diagnostics: no per-edit diagnostics in this run
  std::optional<std::string> config;        // --config: the run-wide configuration (default: ./agent-run.yaml);
                                            // mcp: the task file whose mcp_servers: names the server
  std::vector<std::string> server_command;  // mcp: the stdio server's command line, after `--`
  std::optional<bool> sandbox;              // --sandbox on|off: over every task's and policy's sandbox: key
                                            // (run, tool); policy explain decides as inside (on) or outside
  std::optional<std::string> prompt;        // -p, --prompt: an ad-hoc task in --workspace (default: .)
  std::vector<std::string> checks;          // --check CMD, repeatable: the -p task's checks
  OutputFormat output_format = OutputFormat::text;  // --output-format
  std::optional<int> thinking_budget;               // --thinking-budget: Anthropic extended thinking
  std::optional<std::string> reasoning_effort;      // --reasoning-effort: OpenAI reasoning models
  bool record = false;                              // --record: keep every model exchange of every attempt
  std::optional<std::string> replay;                // --replay DIR: play a recorded run back, no model
  bool replay_loose = false;                        // --replay-loose: a request that differs only warns
  RunBudget budget;                                 // --max-cost USD, --max-time DURATION: for the whole run
  CompareSettings compare;                          // compare: --max-*-increase, --max-pass-rate-drop, --seed
  std::optional<std::string> html;                  // compare --html FILE: the comparison as a page too
  bool fail_on_regression = false;                  // compare --fail-on-regression: exit 1 on a regression
};

/// Parses the arguments after the program name. Errors say which argument is wrong and why.
Expected<CliOptions> parse_cli(const std::vector<std::string>& arguments);

/// The --help text, generated from the option table.
std::string usage_text();

}  // namespace agent_run
