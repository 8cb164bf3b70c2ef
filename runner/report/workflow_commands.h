#pragma once

#include "report/run_report.h"

#include <string>
#include <string_view>

namespace agent_run {

// GitHub Actions workflow commands (`::error file=...::message`), escaped as the runner unescapes
// them (actions/toolkit's command.ts): the one home for that escaping.

/// A message: `%` as `%25`, CR as `%0D`, LF as `%0A` (`%` first); invalid UTF-8 repaired and other
/// control characters made visible.
std::string command_data(std::string_view text);

/// A property value: as command_data, plus `:` as `%3A` and `,` as `%2C`.
std::string command_property(std::string_view text);

/// One annotation on a file of the repository (`::error` or `::warning`).
struct Annotation {
  std::string level = "error";  // error | warning | notice
  std::string file;             // relative to the repository's root; empty: not on a file
  int line = 0;                 // 1-based; 0: none
  int column = 0;               // 1-based; 0: none
  std::string title;
  std::string message;
};

/// The workflow command line for `annotation`, without the line break; line and column only with a file.
std::string annotation_command(const Annotation& annotation);

/// The run's figures as step outputs, `name=value` lines for $GITHUB_OUTPUT: attempts, passed,
/// failed, errors, skipped, pass-rate (passed over judged, `0.6667`; empty when none was judged),
/// tokens (all of them) and cost-usd (empty when a price is unknown).
std::string step_outputs(const RunReport& report);

}  // namespace agent_run
