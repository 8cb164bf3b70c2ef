#pragma once

#include "base/files.h"
#include "report/run_report.h"

#include <cstddef>
#include <functional>
#include <string>

namespace agent_run {

/// Reads what an attempt's patch_path names in the report folder: at most `max_bytes` of it,
/// empty when there is none.
using PatchReader = std::function<std::string(const std::string& patch_path, std::size_t max_bytes)>;

/// report.html: one self-contained page (no script, font, image or style from anywhere else) that
/// reads well with JavaScript off, in light and dark mode: the totals; what failed, each a link to
/// its attempt; pass rate, cost and tokens per task and per model as inline SVG charts with tables;
/// every attempt as a collapsed section with its turn-by-turn timeline (model and tool time,
/// denials, edits with their diagnostics, the checks), its final message and its patch as a coloured
/// diff; filters by outcome and model made of radio buttons and CSS. The page is well-formed XML too.
std::string report_to_html(const RunReport& report, const PatchReader& read_patch);
/// The same page handed to `write` in pieces: the head, the sections above the attempts, then one
/// attempt at a time; what the report folder writes, without the whole page in memory.
void write_report_html(const RunReport& report, const PatchReader& read_patch, const WritePiece& write);

}  // namespace agent_run
