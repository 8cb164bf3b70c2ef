#include "model/model_names.h"

#include "base/text.h"
#include "model/price_table.h"

#include <vector>

namespace agent_run {

namespace {

/// `provider/name` of the built-in price table whose name is nearest to `bare`, or "".
std::string priced_model_like(const std::string& bare) {
  static const PriceTable k_table = builtin_price_table();
  std::vector<std::string> names;
  std::vector<std::string> full;
  for (const auto& [model, price] : k_table.models) {
    full.push_back(model);
    names.push_back(model.substr(model.find('/') + 1));
  }
  auto suggestion = closest_match(bare, names);
  if (!suggestion) return "";
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == *suggestion) return full[i];
  }
  return "";
}

}  // namespace

bool is_replayed_model(const std::string& model) { return model == k_replay_model; }

Expected<void> check_model_name(const std::string& model) {
  if (model == "script" || is_replayed_model(model)) return {};
  if (model.starts_with("script/")) {  // a variant of the scripted model: its turns with `variants: [NAME]`
    if (is_identifier(model.substr(7))) return {};
    return make_error("model '" + model + "' needs a variant name after 'script/' (letters, digits, - and _)");
  }
  const auto slash = model.find('/');
  const std::string provider = model.substr(0, slash);
  const std::string name = slash == std::string::npos ? "" : model.substr(slash + 1);
  if (provider == "anthropic" || provider == "openai") {
    if (!name.empty() && name.find_first_of(" \t\n") == std::string::npos) return {};
    return make_error("model '" + model + "' needs a model name after '" + provider + "/', e.g. " +
                      (provider == "anthropic" ? "anthropic/claude-sonnet-4-5" : "openai/gpt-4o"));
  }
  auto suggestion = closest_match(provider, {"anthropic", "openai", "script"});
  std::string priced = slash == std::string::npos ? priced_model_like(model) : "";
  std::string hint = !priced.empty()             ? " (did you mean '" + priced + "'?)"
                     : !suggestion               ? ""
                     : *suggestion == "script" ? " (did you mean 'script'?)"
                                               : " (did you mean '" + *suggestion + "/" + name + "'?)";
  return make_error("unknown model '" + model + "'" + hint +
                    ": use anthropic/NAME, openai/NAME (any OpenAI-compatible server, see OPENAI_BASE_URL), script or replay");
}

}  // namespace agent_run
