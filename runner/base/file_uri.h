#pragma once

#include <filesystem>
#include <string>

namespace agent_run {

/// `file://` URI of an absolute path (percent-encoding what must be), and back.
std::string path_to_uri(const std::filesystem::path& path);
std::filesystem::path uri_to_path(const std::string& uri);

}  // namespace agent_run
