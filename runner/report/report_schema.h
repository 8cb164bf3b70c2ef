#pragma once

#include <string_view>

namespace agent_run {

/// The report.json format this version writes (reports/report.schema.json).
constexpr std::string_view k_report_schema = "agent-run-report/2";

/// The older format it still reads (for --resume and merge): each attempt's 0-based `repeat_index`
/// instead of its number `n`, and no `final_message`.
constexpr std::string_view k_report_schema_1 = "agent-run-report/1";

/// The journal beside report.json (report_journal.h): its first line's `schema`.
constexpr std::string_view k_journal_schema = "agent-run-journal/1";

}  // namespace agent_run
