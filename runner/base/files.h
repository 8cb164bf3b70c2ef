#pragma once

#include "base/expected.h"

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

namespace agent_run {

/// The whole content of a file.
Expected<std::string> read_file(const std::filesystem::path& path);

/// The whole content of `relative`, a file beneath `root` that someone else may have changed (a
/// workspace file the agent can write: compile_flags.txt, package.json): the one way the runner
/// reads one. No link is followed out of `root` (safe_open's open_following_beneath), only a
/// regular file is read (a FIFO, socket or device is refused without being opened, so nothing
/// blocks), and a file larger than `cap` bytes is refused.
Expected<std::string> read_file_beneath(const std::filesystem::path& root, std::string_view relative,
                                        std::size_t cap);

/// The cap of read_file_beneath for a project's small configuration files.
inline constexpr std::size_t k_project_file_cap = 4 * 1024 * 1024;
/// ... and for a compile_commands.json, which lists every compilation of a large project.
inline constexpr std::size_t k_compile_database_cap = 256 * 1024 * 1024;

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
