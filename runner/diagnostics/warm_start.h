#pragma once

#include "diagnostics/languages.h"
#include "diagnostics/workspace_survey.h"

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace agent_run {

/// A language a workspace holds, and the file its server is given first when the attempt starts.
struct WarmStart {
  Language language = Language::none;
  std::filesystem::path file;  // absolute: the shallowest of its files (for Go, not a test file)
  std::string text;            // its content
};

/// The languages of the files in `workspace` (surveyed as for a server, nothing hidden read), at
/// most `most` of them, the language of the most files first, each with its first file.
std::vector<WarmStart> warm_starts(const std::filesystem::path& workspace, const HiddenPath& hidden, std::size_t most);

}  // namespace agent_run
