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

// What agent-run prints of text that an agent, a check or a tool controls must never be read as a
// workflow command. GitHub's runner (actions/runner, ActionCommand) reads a line as one when,
// after its leading whitespace, it starts with `::`, or when it holds the legacy `##[` anywhere;
// and it ends a line at LF, at CR and at CRLF.

/// `text` as (a piece of) one log line the runner reads as plain text: CR and LF shown as `\r` and
/// `\n`, every `##[` written `## [`, and a `::` that the line would start with after its leading
/// whitespace written `: :`.
std::string log_line(std::string_view text);

/// Each line of `text` (lines end at LF) through log_line, the line breaks kept.
std::string log_lines(std::string_view text);

/// A JSON text (one line, as Json::dump writes it) with every `##[` written `##\u005b`: the same
/// JSON value, and a line that starts with `{` or `[` is never read as a `::` command.
std::string json_log_line(std::string json);

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

/// A step output that may span lines, in $GITHUB_OUTPUT's heredoc form: `name<<DELIMITER`, the
/// value, then DELIMITER on a line of its own. `delimiter` must not occur in `value` (the runner
/// would end the value there): the caller picks one at random and checks.
std::string multiline_output(std::string_view name, std::string_view value, std::string_view delimiter);

}  // namespace agent_run
