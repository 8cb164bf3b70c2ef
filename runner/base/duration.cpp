#include "base/duration.h"

namespace agent_run {

std::optional<std::chrono::milliseconds> parse_duration(std::string_view text) {
  if (text.empty()) return std::nullopt;
  long long total_ms = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t digits_start = i;
    long long number = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
      number = number * 10 + (text[i] - '0');
      if (number > 1'000'000'000LL) return std::nullopt;
      ++i;
    }
    if (i == digits_start) return std::nullopt;
    std::string_view unit = text.substr(i, text.substr(i, 2) == "ms" ? 2 : 1);
    i += unit.size();
    if (unit == "ms") total_ms += number;
    else if (unit == "s") total_ms += number * 1000;
    else if (unit == "m") total_ms += number * 60'000;
    else if (unit == "h") total_ms += number * 3'600'000;
    else return std::nullopt;
  }
  return std::chrono::milliseconds(total_ms);
}

std::string format_duration(std::chrono::milliseconds duration) {
  long long ms = duration.count();
  if (ms == 0) return "0s";
  std::string out;
  auto take = [&](long long unit, const char* suffix) {
    if (ms >= unit) {
      out += std::to_string(ms / unit) + suffix;
      ms %= unit;
    }
  };
  take(3'600'000, "h");
  take(60'000, "m");
  take(1000, "s");
  take(1, "ms");
  return out;
}

}  // namespace agent_run
