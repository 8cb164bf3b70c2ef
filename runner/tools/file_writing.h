#pragma once

#include "base/expected.h"
#include "tools/confined_path.h"

#include <string>
#include <string_view>

namespace agent_run {

/// The current content of a file about to be written: nullopt-like empty with `exists == false` when
/// it does not exist yet; an error when it exists but is not a regular file.
struct ExistingFile {
  bool exists = false;
  std::string content;
};
Expected<ExistingFile> read_existing_file(const ConfinedPath& file);

/// Writes `content` to `file` atomically, creating parent folders inside the workspace.
Expected<void> replace_file_content(const ConfinedPath& file, std::string_view content);

}  // namespace agent_run
