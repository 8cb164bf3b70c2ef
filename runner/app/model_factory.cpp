#include "app/model_factory.h"

#include "model/anthropic_api.h"
#include "model/model_names.h"
#include "model/openai_api.h"
#include "model/scripted_model.h"
#include "net/interrupt_on_cancel.h"

namespace agent_run {

namespace {

const ModelAccess k_defaults;

/// The client for `provider/name`, or why there can be none.
Expected<std::unique_ptr<ModelClient>> make_api_client(const ModelWiring& wiring, const std::string& model,
                                                       std::shared_ptr<WireTransport> wire) {
  if (!wire) wire = network_transport();
  const std::string provider = model.substr(0, model.find('/'));
  const bool anthropic = provider == "anthropic";
  const ApiEndpoint& endpoint = anthropic ? wiring.access.anthropic : wiring.access.openai;
  const ApiEndpoint& official = anthropic ? k_defaults.anthropic : k_defaults.openai;
  if (wire->reaches_network() && endpoint.api_key.empty() && endpoint.base_url == official.base_url) {
    const std::string key = anthropic ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY";
    const std::string url = anthropic ? "ANTHROPIC_BASE_URL" : "OPENAI_BASE_URL";
    return make_error(model + ": " + key + " is not set; export the API key for " + official.base_url + " (or set " +
                      url + " to a server that needs none)");
  }
  const ModelOptions options = wiring.options_for ? wiring.options_for(model) : ModelOptions{};
  RequestSettings request = request_settings(model, options);
  if (request.thinking_budget && request.max_output_tokens && *request.max_output_tokens <= *request.thinking_budget) {
    return make_error(model + ": max_output_tokens (" + std::to_string(*request.max_output_tokens) +
                      ") must be above thinking_budget (" + std::to_string(*request.thinking_budget) +
                      "): the thinking counts against the output limit");
  }
  std::optional<ModelPrice> price;
  if (const ModelPrice* found = wiring.prices->find(model)) price = *found;
  ApiClientSettings client = wiring.client;
  client.context_window = options.context_window;
  auto api = anthropic ? make_anthropic_api(endpoint, request) : make_openai_api(endpoint, request);
  const Cancellation* cancellation = wiring.client.cancellation;  // a stop request cuts the wait short too
  SleepFunction sleep = [cancellation](std::chrono::milliseconds wait) { wait_unless_cancelled(cancellation, wait); };
  if (!wire->reaches_network()) sleep = [](std::chrono::milliseconds) {};  // a replay computes waits, sleeps none
  return std::unique_ptr<ModelClient>(std::make_unique<ApiModelClient>(
      model, std::move(api), price, client, *wiring.clock, std::move(sleep), endpoint.api_key, std::move(wire)));
}

constexpr int k_room_beside_thinking = 8192;

}  // namespace

RequestSettings request_settings(const std::string& model, const ModelOptions& options) {
  RequestSettings request;
  request.model = model.substr(model.find('/') + 1);
  request.max_output_tokens = options.max_output_tokens;
  request.temperature = options.temperature;
  request.reasoning_effort = options.reasoning_effort;
  if (model.starts_with("anthropic/") && options.thinking_budget) {
    request.thinking_budget = options.thinking_budget;
    if (!request.max_output_tokens) request.max_output_tokens = *options.thinking_budget + k_room_beside_thinking;
    request.temperature.reset();
  }
  return request;
}

ModelAccess read_model_access(char** environ_entries) {
  ModelAccess access;
  for (char** entry = environ_entries; entry && *entry; ++entry) {
    const std::string text = *entry;
    const auto equals = text.find('=');
    if (equals == std::string::npos || equals + 1 == text.size()) continue;
    const std::string name = text.substr(0, equals);
    const std::string value = text.substr(equals + 1);
    if (name == "ANTHROPIC_API_KEY") access.anthropic.api_key = value;
    else if (name == "ANTHROPIC_BASE_URL") access.anthropic.base_url = value;
    else if (name == "OPENAI_API_KEY") access.openai.api_key = value;
    else if (name == "OPENAI_BASE_URL") access.openai.base_url = value;
  }
  return access;
}

ModelFactory make_model_factory(ModelWiring wiring) {
  return [wiring](const Task& task, const std::string& model, int n,
                  std::shared_ptr<WireTransport> wire) -> Expected<std::unique_ptr<ModelClient>> {
    if (is_scripted_model(model)) {
      return std::unique_ptr<ModelClient>(
          std::make_unique<ScriptedModel>(script_for(task.script, scripted_variant(model), n), model));
    }
    return make_api_client(wiring, model, std::move(wire));
  };
}

void warn_about_unenforceable_cost_limits(const std::vector<Task>& tasks,
                                          const std::vector<std::string>& model_override, const PriceTable& prices,
                                          std::ostream& err) {
  for (const Task& task : tasks) {
    if (!task.limits.cost_usd) continue;
    for (const std::string& model : model_override.empty() ? std::vector<std::string>{task.model} : model_override) {
      if (is_scripted_model(model) || is_replayed_model(model) || prices.find(model)) continue;
      err << "agent-run: warning: " << task.source.string() << ": limits.cost_usd cannot be enforced with " << model
          << ": the price table (version " << prices.version << ") has no price for it, so its cost is unknown; "
          << "give one with --prices FILE\n";
    }
  }
}

}  // namespace agent_run
