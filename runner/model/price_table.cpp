#include "model/price_table.h"

#include "base/files.h"
#include "base/json.h"
#include "base/text.h"

#include <cctype>
#include <vector>

namespace agent_run {

namespace {

/// `name` without a trailing `-YYYYMMDD` or `-YYYY-MM-DD`, or nullopt when it has none.
std::optional<std::string> without_date_suffix(std::string_view name) {
  auto digits = [](std::string_view text) {
    for (char c : text) {
      if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    }
    return !text.empty();
  };
  if (name.size() > 9 && name[name.size() - 9] == '-' && digits(name.substr(name.size() - 8))) {
    return std::string(name.substr(0, name.size() - 9));
  }
  if (name.size() > 11 && name[name.size() - 11] == '-' && name[name.size() - 6] == '-' &&
      name[name.size() - 3] == '-' && digits(name.substr(name.size() - 10, 4)) &&
      digits(name.substr(name.size() - 5, 2)) && digits(name.substr(name.size() - 2))) {
    return std::string(name.substr(0, name.size() - 11));
  }
  return std::nullopt;
}

/// A model's `context_window`: a whole number of tokens, at least 1.
Expected<std::int64_t> parse_context_window(const std::string& where, const Json& value) {
  if (!value.is_integer() || value.as_int() < 1) {
    return make_error(where + ".context_window: must be a whole number of tokens, at least 1");
  }
  return value.as_int();
}

Expected<ModelPrice> parse_price(const std::string& where, const Json& entry) {
  if (!entry.is_object()) return make_error(where + ": must be an object of prices in USD per million tokens");
  static const std::vector<std::string> k_keys = {"input", "output", "cache_read", "cache_write", "context_window"};
  ModelPrice price;
  std::optional<double> cache_read;
  std::optional<double> cache_write;
  for (const auto& [key, value] : entry.as_object()) {
    if (key == "context_window") {
      auto window = parse_context_window(where, value);
      if (!window) return window.error();
      price.context_window = *window;
      continue;
    }
    if (!value.is_number() || value.as_double() < 0) {
      return make_error(where + "." + key + ": must be a number of USD per million tokens, at least 0");
    }
    if (key == "input") price.input = value.as_double();
    else if (key == "output") price.output = value.as_double();
    else if (key == "cache_read") cache_read = value.as_double();
    else if (key == "cache_write") cache_write = value.as_double();
    else {
      auto suggestion = closest_match(key, k_keys);
      return make_error(where + ": unknown key '" + key + "'" +
                        (suggestion ? " (did you mean '" + *suggestion + "'?)" : "") +
                        "; the keys are input, output, cache_read, cache_write, context_window");
    }
  }
  if (!entry.find("input") || !entry.find("output")) return make_error(where + ": needs both 'input' and 'output'");
  price.cache_read = cache_read.value_or(price.input);
  price.cache_write = cache_write.value_or(price.input);
  return price;
}

}  // namespace

const ModelPrice* PriceTable::find(std::string_view model) const {
  if (auto found = models.find(std::string(model)); found != models.end()) return &found->second;
  if (auto base = without_date_suffix(model)) {
    if (auto found = models.find(*base); found != models.end()) return &found->second;
  }
  return nullptr;
}

Expected<PriceTable> parse_price_table(std::string_view json_text, const std::string& source) {
  auto json = parse_json(json_text);
  if (!json) return make_error(source + ": " + json.error().message);
  if (!json->is_object()) return make_error(source + ": a price table is a JSON object with 'version' and 'models'");
  PriceTable table;
  table.file = source;
  table.version = json->get_string("version");
  if (table.version.empty()) return make_error(source + ": 'version' is missing; it is written in every report");
  const Json* models = json->find("models");
  if (models == nullptr || !models->is_object()) {
    return make_error(source +
                      ": 'models' must be an object of \"provider/name\": {input, output, cache_read, cache_write}");
  }
  for (const auto& [name, entry] : models->as_object()) {
    auto price = parse_price(source + ": models.\"" + name + "\"", entry);
    if (!price) return price.error();
    table.models[name] = *price;
  }
  return table;
}

Expected<PriceTable> load_price_table(const std::filesystem::path& file) {
  auto text = read_file(file);
  if (!text) return make_error(file.string() + ": cannot read the price table: " + text.error().message);
  return parse_price_table(*text, file.string());
}

PriceTable builtin_price_table() {
  auto table = parse_price_table(builtin_prices_json(), "built-in");
  return table ? *table : PriceTable{"invalid", "built-in", {}};  // a unit test keeps the shipped file valid
}

double cost_usd(const ModelPrice& price, const Usage& usage) {
  return (static_cast<double>(usage.input_tokens) * price.input +
          static_cast<double>(usage.output_tokens) * price.output +
          static_cast<double>(usage.cache_read_input_tokens) * price.cache_read +
          static_cast<double>(usage.cache_creation_input_tokens) * price.cache_write) /
         1e6;
}

}  // namespace agent_run
