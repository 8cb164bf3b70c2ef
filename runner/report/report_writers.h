#pragma once

#include "base/files.h"
#include "base/json.h"
#include "report/run_report.h"

#include <string>

namespace agent_run {

/// A Usage as the reports and transcripts write it (cost_usd null when the price is unknown).
Json usage_to_json(const Usage& usage);

/// An edit's diagnostics as the report writes them (null when diagnostics were off).
Json edit_diagnostics_to_json(const std::optional<EditDiagnostics>& diagnostics);

/// One attempt as report.json's `attempts` holds it (and as the journal's lines carry it).
Json attempt_to_json(const AttemptResult& attempt);

/// The JSON report (`agent-run-report/2`, schema in reports/report.schema.json), totals recomputed
/// from the attempts.
Json report_to_json(const RunReport& report);
/// The same report as text, report_to_json(report).dump_pretty() to the byte, handed to `write` an
/// attempt at a time: what the report folder writes, without a tree of the whole run in memory.
void write_report_json(const RunReport& report, const WritePiece& write);

/// The aggregates across attempts (run.aggregates): per task and model, pass@k, pass^k, flaky,
/// counts with errors apart, mean and median turns, time, tokens and cost; per model, the model
/// matrix's column. Recomputed from the attempts.
Json aggregates_to_json(const RunReport& report);

/// JUnit XML that validates against the junit-10 schema: one <testsuite> per task, one <testcase>
/// per attempt; <failure> = judged wrong, <error> = could not be judged, <skipped> = not run.
std::string report_to_junit(const RunReport& report);
/// The same document handed to `write` an attempt's <testcase> at a time: what the report folder
/// writes, without the run's whole document (or a copy of its attempts) in memory.
void write_report_junit(const RunReport& report, const WritePiece& write);

/// One line for the console when an attempt finishes: outcome, task, model, turns, time, reason.
std::string attempt_summary_line(const AttemptResult& attempt);

/// The closing lines for the console: counts by outcome and where the reports are.
std::string run_summary_lines(const RunReport& report);

}  // namespace agent_run
