#pragma once

#include "app/cli_options.h"
#include "app/load_inputs.h"
#include "base/expected.h"
#include "model/price_table.h"
#include "task/configuration.h"
#include "task/task.h"

#include <filesystem>
#include <string>

namespace agent_run {

/// The run-wide configuration this invocation uses: --config FILE, else agent-run.yaml in the
/// current folder when there is one, else none (the built-in defaults).
Expected<RunConfiguration> configuration_for(const CliOptions& options);

/// The ad-hoc task of `agent-run -p PROMPT [--workspace DIR]`: the configuration's defaults, the
/// prompt, and the folder (default: the current one) worked on in place.
Expected<Task> ad_hoc_task(const RunConfiguration& configuration, const std::string& prompt,
                           const std::optional<std::string>& workspace, const std::vector<std::string>& checks = {});

/// The price table a run uses: --prices FILE, else the configuration's `prices:`, else the built-in one.
Expected<PriceTable> run_price_table(const CliOptions& options, const RunConfiguration& configuration);

/// Whether a task file without checks is an error: --require-checks or `require_checks: true`.
ChecksRequired checks_required(const CliOptions& options, const RunConfiguration& configuration);

}  // namespace agent_run
