#pragma once

#include "base/expected.h"

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

namespace agent_run {

/// The whole content of a file.
Expected<std::string> read_file(const std::filesystem::path& path);

/// Writes `content` to a temporary file beside `path`, flushes it, and renames it over `path`, so a
/// reader (or a run killed mid-write) sees the old file or the new one, never half of one.
Expected<void> write_file_atomically(const std::filesystem::path& path, std::string_view content);

/// Hands the next piece of a file's content to the writer.
using WritePiece = std::function<void(std::string_view piece)>;
/// The same for a file whose content `produce` gives piece by piece (to the WritePiece it is
/// handed), so that the whole of it never has to be in memory at once.
Expected<void> write_file_atomically(const std::filesystem::path& path,
                                     const std::function<void(const WritePiece&)>& produce);

/// Creates a new, empty, uniquely named folder under `parent` (mkdtemp).
Expected<std::filesystem::path> make_unique_folder(const std::filesystem::path& parent, std::string_view prefix);

}  // namespace agent_run
