#pragma once

#include "report/edit_diagnostics.h"

#include <chrono>
#include <string>

namespace agent_run {

/// What the model reads after an edit's result: nothing when the file is clean or no checker
/// could run; otherwise one header naming the checker and at most ten problems (errors first,
/// neighbours labelled `[other file]`), with the rest counted; one line when the check was abandoned.
///
///   diagnostics (gopls): 2 problems
///     loop.go:14:2: error: undefined: fmt.Printl [UndeclaredImportedName]
///     [other file] cmd/app.go:12:5: error: undeclared name: Helper [UndeclaredName]
std::string diagnostics_text(const EditDiagnostics& diagnostics, std::chrono::milliseconds budget);

}  // namespace agent_run
