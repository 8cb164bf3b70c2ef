#pragma once

#include "base/expected.h"

#include <filesystem>
#include <string_view>

namespace agent_run {

/// Writes a small bookkeeping file of a workspace (a worktree's links, the holder's manifest) in
/// one write, without the fsync of write_file_atomically: five of those cost more than git spends
/// on a whole worktree, and a crash only leaves debris that the next run's clean-up removes.
Expected<void> write_small_file(const std::filesystem::path& path, std::string_view content);

}  // namespace agent_run
