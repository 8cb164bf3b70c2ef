#pragma once

#include "base/expected.h"
#include "base/json.h"
#include "report/run_report.h"

#include <filesystem>
#include <string>

namespace agent_run {

/// Reads a report.json back into a RunReport, for --resume, merge and compare, with the attempts of
/// the journal beside it that it does not hold yet (report_journal.h: what a run killed mid-way
/// finished after its last rewrite of report.json): strict about the schema
/// (`agent-run-report/2`, or the older `/1`, whose 0-based repeat_index becomes n) and the types of the fields it
/// knows, silent about fields it does not know. Errors name the file and the field: `out/report.json:
/// attempts[3].outcome: ...`.
Expected<RunReport> read_report_file(const std::filesystem::path& file);

/// The same, from an already parsed document; `source` names it in errors.
Expected<RunReport> report_from_json(const Json& json, const std::string& source);

/// One attempt, as report.json's `attempts` (format 2) and the journal's lines hold it; `source`
/// names it in errors (`out/report.journal.jsonl:3: attempt.outcome: ...`).
Expected<AttemptResult> attempt_from_json(const Json& json, const std::string& source);

}  // namespace agent_run
