#pragma once

#include "base/expected.h"
#include "tools/confined_path.h"

#include <filesystem>
#include <string>
#include <string_view>

namespace agent_run {

/// The current content of a file about to be written: `exists == false` when it does not exist yet; an
/// error when it exists but is not a regular file (a FIFO or a device is never opened).
struct ExistingFile {
  bool exists = false;
  std::string content;
};
Expected<ExistingFile> read_existing_file(const std::filesystem::path& workspace, const ConfinedPath& file);

/// Writes `content` to `file` atomically beneath the workspace, creating parent folders (see write_beneath).
Expected<void> replace_file_content(const std::filesystem::path& workspace, const ConfinedPath& file,
                                    std::string_view content);

}  // namespace agent_run
