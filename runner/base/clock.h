#pragma once

#include <chrono>
#include <string>

namespace agent_run {

/// Time as the runner sees it: a steady clock for limits and durations, a wall clock for reports.
/// Abstract so tests can advance time instead of sleeping.
class Clock {
 public:
  using SteadyTime = std::chrono::steady_clock::time_point;
  using WallTime = std::chrono::system_clock::time_point;

  virtual ~Clock() = default;
  virtual SteadyTime now() const = 0;
  virtual WallTime wall_now() const = 0;
};

/// The real clocks of the machine.
class SystemClock final : public Clock {
 public:
  SteadyTime now() const override { return std::chrono::steady_clock::now(); }
  WallTime wall_now() const override { return std::chrono::system_clock::now(); }
};

/// Milliseconds between two steady times, for durations in reports.
inline long long elapsed_ms(Clock::SteadyTime from, Clock::SteadyTime to) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(to - from).count();
}

/// `YYYY-MM-DDTHH:MM:SSZ` in UTC, for reports.
std::string format_utc(Clock::WallTime time);

}  // namespace agent_run
