#include "report/figures.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace agent_run {

namespace {

std::string fixed(double value, int decimals) {
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, decimals);
  return ec == std::errc() ? std::string(buffer, end) : "?";
}

}  // namespace

std::string short_duration(long long ms) {
  ms = std::max(ms, 0LL);
  long long tenths = (ms + 50) / 100;
  if (tenths < 600) return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + "s";
  long long seconds = (ms + 500) / 1000;
  auto two_digits = [](long long n) { return (n < 10 ? "0" : "") + std::to_string(n); };
  if (seconds < 3600) return std::to_string(seconds / 60) + "m" + two_digits(seconds % 60) + "s";
  return std::to_string(seconds / 3600) + "h" + two_digits(seconds / 60 % 60) + "m";
}

std::string dollars(double usd) { return "$" + fixed(usd, 4); }

std::string dollars(const std::optional<double>& cost_usd) { return cost_usd ? dollars(*cost_usd) : "unknown"; }

std::string token_count(std::int64_t tokens) {
  if (tokens < 1000) return std::to_string(tokens);
  double value = static_cast<double>(tokens);
  const char* unit = "k";
  value /= 1000;
  if (value >= 999.5) {
    value /= 1000;
    unit = "M";
  }
  int decimals = value < 9.995 ? 2 : value < 99.95 ? 1 : 0;
  return fixed(value, decimals) + unit;
}

std::string tokens_text(const Usage& usage) { return (usage.estimated ? "~" : "") + token_count(usage.total_tokens()); }

std::optional<double> pass_rate(const RunTotals& totals) {
  int judged = totals.passed + totals.failed;
  if (judged == 0) return std::nullopt;
  return static_cast<double>(totals.passed) / judged;
}

std::string percent(const std::optional<double>& fraction) {
  return fraction ? std::to_string(static_cast<int>(std::lround(*fraction * 100))) + "%" : "-";
}

std::string decimal_fraction(const std::optional<double>& fraction) { return fraction ? fixed(*fraction, 4) : ""; }

}  // namespace agent_run
