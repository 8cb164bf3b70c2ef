#pragma once

#include "base/expected.h"
#include "task/configuration.h"

#include <filesystem>
#include <optional>
#include <string_view>

namespace agent_run {

/// The configuration file's name, looked for in the current folder.
inline constexpr const char* k_configuration_file = "agent-run.yaml";

/// Reads and validates agent-run.yaml's text as strictly as a task file: unknown keys (with a "did
/// you mean"), wrong types and bad values are errors naming `source`:LINE:COL, all at once. Pure
/// apart from reading the files it names (an `output_schema:` file): the entry point for a fuzzer.
Expected<RunConfiguration> load_configuration(std::string_view yaml_text, const std::filesystem::path& source);

/// The same from a file.
Expected<RunConfiguration> load_configuration_file(const std::filesystem::path& path);

/// `folder`/agent-run.yaml when it exists.
std::optional<std::filesystem::path> find_configuration(const std::filesystem::path& folder);

}  // namespace agent_run
