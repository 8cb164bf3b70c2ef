#pragma once

#include "model/model_options.h"
#include "task/task.h"

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace agent_run {

/// The run-wide configuration (agent-run.yaml): defaults for every task's keys, and settings of the
/// run itself. A task file overrides the defaults; a command-line flag overrides both.
struct RunConfiguration {
  std::filesystem::path source;                   // the file; empty when there is none
  Task defaults;                                  // the task keys it sets (with their origins), over the built-in ones
  std::optional<std::filesystem::path> prices;    // the price table (absolute)
  std::optional<std::string> grep;                // auto | ripgrep | builtin
  bool require_checks = false;                    // a task file without `checks:` is an error, not a warning
  std::optional<std::string> anthropic_base_url;  // endpoints: where each provider's API is
  std::optional<std::string> openai_base_url;
  std::optional<int> model_retries;  // retries of a model call
  std::optional<std::chrono::milliseconds> model_idle_timeout;
  ModelOptions every_model;                    // the top-level max_output_tokens, temperature, ...
  std::map<std::string, ModelOptions> models;  // `models:`, by provider/name: over every_model
  std::map<std::string, std::string> origins;  // run-wide setting -> FILE:LINE:COL

  /// The options for `model`: its `models:` entry over the top-level ones.
  ModelOptions options_for(const std::string& model) const;
};

}  // namespace agent_run
