#include "report/utc_time.h"

#include <chrono>
#include <cstdio>

namespace agent_run {

namespace {

/// The number made of the `count` digits at `at`, or nullopt if one of them is not a digit.
std::optional<int> digits_at(std::string_view text, std::size_t at, std::size_t count) {
  if (at + count > text.size()) return std::nullopt;
  int value = 0;
  for (std::size_t i = at; i < at + count; ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    value = value * 10 + (text[i] - '0');
  }
  return value;
}

/// Milliseconds of a `.fff...` fraction at `at` (0 when there is none); advances `at` past it.
long long fraction_ms(std::string_view text, std::size_t& at) {
  if (at >= text.size() || text[at] != '.') return 0;
  long long ms = 0;
  int digits = 0;
  for (++at; at < text.size() && text[at] >= '0' && text[at] <= '9'; ++at, ++digits) {
    if (digits < 3) ms = ms * 10 + (text[at] - '0');
  }
  for (; digits < 3; ++digits) ms *= 10;
  return ms;
}

/// Offset east of UTC in minutes of the zone at `at` (`Z`, `±HH:MM` or nothing), or nullopt.
std::optional<int> zone_minutes(std::string_view text, std::size_t at) {
  if (at == text.size()) return 0;
  if (text.substr(at) == "Z") return 0;
  if (text.size() != at + 6 || (text[at] != '+' && text[at] != '-') || text[at + 3] != ':') return std::nullopt;
  std::optional<int> hours = digits_at(text, at + 1, 2);
  std::optional<int> minutes = digits_at(text, at + 4, 2);
  if (!hours || !minutes) return std::nullopt;
  return (text[at] == '-' ? -1 : 1) * (*hours * 60 + *minutes);
}

}  // namespace

std::optional<long long> parse_utc_ms(std::string_view text) {
  if (text.size() < 19 || text[4] != '-' || text[7] != '-' || text[10] != 'T' || text[13] != ':' || text[16] != ':') {
    return std::nullopt;
  }
  auto year = digits_at(text, 0, 4), month = digits_at(text, 5, 2), day = digits_at(text, 8, 2);
  auto hour = digits_at(text, 11, 2), minute = digits_at(text, 14, 2), second = digits_at(text, 17, 2);
  if (!year || !month || !day || !hour || !minute || !second || *hour > 23 || *minute > 59 || *second > 60) {
    return std::nullopt;
  }
  std::chrono::year_month_day date{std::chrono::year(*year), std::chrono::month(static_cast<unsigned>(*month)),
                                   std::chrono::day(static_cast<unsigned>(*day))};
  if (!date.ok()) return std::nullopt;
  std::size_t at = 19;
  long long ms = fraction_ms(text, at);
  std::optional<int> zone = zone_minutes(text, at);
  if (!zone) return std::nullopt;
  long long days = std::chrono::sys_days(date).time_since_epoch().count();
  long long seconds = days * 86400 + *hour * 3600 + *minute * 60 + *second - *zone * 60LL;
  return seconds * 1000 + ms;
}

std::string format_utc_seconds(long long epoch_ms) {
  using namespace std::chrono;
  sys_time<milliseconds> time{milliseconds(epoch_ms)};
  sys_days day = floor<days>(time);
  year_month_day date{day};
  hh_mm_ss clock{floor<seconds>(time - day)};
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%04d-%02u-%02uT%02lld:%02lld:%02lld", static_cast<int>(date.year()),
                static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()),
                static_cast<long long>(clock.hours().count()), static_cast<long long>(clock.minutes().count()),
                static_cast<long long>(clock.seconds().count()));
  return buffer;
}

}  // namespace agent_run
