#pragma once

#include <filesystem>

namespace agent_run {

/// True when `path` is `folder` or inside it, compared segment by segment (`/a/bc` is not under
/// `/a/b`). Both should be absolute and normalised.
bool is_at_or_under(const std::filesystem::path& path, const std::filesystem::path& folder);

/// `path` made absolute, with the symlinks of the part of it that exists resolved; when that fails
/// (no permission to look), `path` normalised as written.
std::filesystem::path resolved_path(const std::filesystem::path& path);

}  // namespace agent_run
