#pragma once

#include "base/expected.h"
#include "report/run_report.h"

#include <filesystem>
#include <string>
#include <string_view>

namespace agent_run {

// The journal: one JSON line per finished attempt, appended beside report.json, so that a run
// rewrites report.json whole only now and then and a run killed between two rewrites loses
// nothing that finished. Its first line names the report.json it continues by that file's SHA-256:
//   {"schema":"agent-run-journal/1","report_sha256":"..."}
//   {"run_duration_ms":1234,"attempt":{...report.json's attempt...}}
// A journal whose first line names another report.json is stale (its attempts are in that file or
// were dropped from it) and is not read. report_reader reads it back.

/// The journal of the report file `report_file`, beside it: report.json's is report.journal.jsonl.
std::filesystem::path journal_path(const std::filesystem::path& report_file);

/// The journal's first line, naming the report.json (by the SHA-256 of its bytes) it continues.
std::string journal_header(const std::string& report_sha256);

/// The journal's line for a finished attempt, with the run's duration when it finished.
std::string journal_line(const AttemptResult& attempt, long long run_duration_ms);

/// Appends `line` (one or more whole lines) to the file at `path` in one write and flushes it to
/// disk; on a failure the file is cut back to where it was, so a full disk leaves no half line.
Expected<void> append_line(const std::filesystem::path& path, std::string_view line);

}  // namespace agent_run
