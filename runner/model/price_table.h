#pragma once

#include "base/expected.h"
#include "report/usage.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace agent_run {

/// What one model costs, in USD per million tokens of each kind.
struct ModelPrice {
  double input = 0;                            // uncached input
  double output = 0;                           // output, reasoning included
  double cache_read = 0;                       // input read from the prompt cache
  double cache_write = 0;                      // input written to the prompt cache (Anthropic's 5-minute rate)
  std::optional<std::int64_t> context_window;  // the model's context window in tokens, when the table knows it
};

/// The price table: its version (written in every report), where it came from, and a price per
/// `provider/name`.
struct PriceTable {
  std::string version;
  std::string file;  // `built-in` or the --prices path
  std::map<std::string, ModelPrice> models;

  /// The price of `model` (`provider/name`): an exact entry, else the entry for the name without
  /// a date suffix (`-20250929`, `-2024-08-06`); nullptr when the table has none (cost unknown).
  const ModelPrice* find(std::string_view model) const;
};

/// Parses a price table (JSON: `{"version", "models": {"provider/name": {"input", "output",
/// "cache_read", "cache_write", "context_window"}}}`; context_window, in tokens, is optional). Errors name `source`,
/// the entry and the bad key or value.
Expected<PriceTable> parse_price_table(std::string_view json_text, const std::string& source);

/// Reads and parses a price table file (--prices).
Expected<PriceTable> load_price_table(const std::filesystem::path& file);

/// The table shipped with the project (runner/model/prices.json, compiled in).
PriceTable builtin_price_table();

/// The USD cost of `usage` at `price`.
double cost_usd(const ModelPrice& price, const Usage& usage);

/// The text of runner/model/prices.json, compiled in (generated from it by CMake).
const char* builtin_prices_json();

}  // namespace agent_run
