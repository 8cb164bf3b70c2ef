#pragma once

#include "tools/confined_path.h"
#include "tools/file_writing.h"
#include "tools/tool.h"

#include <string>

namespace agent_run {

/// After edit_file or write_file wrote `file` (which held `before`) with `after`: when diagnostics
/// are on, checks it, appends what the model should read to the output and records the result in
/// the output's edit. Does nothing when diagnostics are off or the write failed.
void check_written_file(const ToolScope& scope, const ConfinedPath& file, const ExistingFile& before,
                        const std::string& after, ToolOutput& output);

/// After a command that may have changed files (bash, a background process's output): when
/// diagnostics are on, the warm language servers are told what changed on disk.
void tell_diagnostics_of_changes(const ToolScope& scope);

/// When the attempt starts: when diagnostics are on, the language servers of the workspace's
/// languages start warming up (without waiting), in the attempt's sandbox.
void warm_diagnostics(const ToolScope& scope);

}  // namespace agent_run
