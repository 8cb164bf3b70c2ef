#pragma once

#include "base/clock.h"
#include "batch/run_attempt.h"
#include "model/api_model_client.h"
#include "model/model_options.h"
#include "model/price_table.h"
#include "model/provider_api.h"
#include "task/task.h"

#include <ostream>
#include <string>
#include <vector>

namespace agent_run {

/// Where each provider's API is and the key for it. main reads them from the environment
/// (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, OPENAI_API_KEY, OPENAI_BASE_URL); nothing else does.
struct ModelAccess {
  ApiEndpoint anthropic{"https://api.anthropic.com", ""};
  ApiEndpoint openai{"https://api.openai.com/v1", ""};
};

/// The four variables from `environ_entries` (KEY=VALUE), defaults where unset or empty.
ModelAccess read_model_access(char** environ_entries);

/// What every real model client of a run shares.
struct ModelWiring {
  ModelAccess access;
  ApiClientSettings client;
  const PriceTable* prices = nullptr;
  const Clock* clock = nullptr;
  /// The options for one model (agent-run.yaml's, the flags over them); unset: none.
  std::function<ModelOptions(const std::string& model)> options_for;
};

/// The request settings of `model` (provider/name) from its options: thinking raises the output
/// limit to budget + 8192 when none is set, and leaves the temperature out (the API refuses both).
RequestSettings request_settings(const std::string& model, const ModelOptions& options);

/// The model factory of a run: `script`, `anthropic/NAME` and `openai/NAME`. A missing key for
/// a provider's own endpoint is the attempt's error, named plainly.
ModelFactory make_model_factory(ModelWiring wiring);

/// Warns on `err` for each task whose limits.cost_usd cannot be enforced because a model it
/// runs with has no price in `prices`.
void warn_about_unenforceable_cost_limits(const std::vector<Task>& tasks,
                                          const std::vector<std::string>& model_override, const PriceTable& prices,
                                          std::ostream& err);

}  // namespace agent_run
