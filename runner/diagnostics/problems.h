#pragma once

#include "base/json.h"
#include "report/edit_diagnostics.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// An LSP Diagnostic as a Problem: severity 1 and 2 kept (information and hints dropped), the
/// column converted from UTF-16 with the document's text when it is known, NBSP made a space,
/// the message cut at 300 characters, `code` or else `source` as the code. nullopt when dropped.
std::optional<Problem> problem_from_lsp(const Json& diagnostic, const std::string& path,
                                        const std::optional<std::string>& text, bool other_file);

/// `path` relative to `workspace` when it is inside it, else as it is.
std::string workspace_relative(const std::filesystem::path& path, const std::filesystem::path& workspace);

/// A problem's identity for before/after comparison: path, severity, code and message, but not
/// its position, which an edit above it moves.
std::string problem_key(const Problem& problem);

/// Problems in `after` that `before` does not hold (as multisets by problem_key).
std::vector<Problem> problems_not_in(const std::vector<Problem>& after, const std::vector<Problem>& before);

/// Orders problems for showing: errors first, the edited file before neighbours, then path, line, column.
void sort_problems(std::vector<Problem>& problems);

}  // namespace agent_run
