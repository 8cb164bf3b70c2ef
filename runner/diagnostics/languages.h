#pragma once

#include "diagnostics/language_server.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace agent_run {

/// The languages per-edit diagnostics know, each with its servers and linters.
enum class Language { none, go, python, typescript, javascript, c, cpp, shell, rust };

/// The language of a file from its extension (and, for scripts without one, a sh/bash shebang).
Language language_of(const std::filesystem::path& file, std::string_view content);

/// The LSP languageId of a file of `language`.
std::string language_id(Language language, const std::filesystem::path& file);

/// The project root around `file` for `language`: the nearest folder with the language's marker
/// files (go.mod, pyproject.toml, tsconfig.json, compile_flags.txt, Cargo.toml, ...), searched up
/// to `workspace` and never above it; `workspace` itself when there is none.
std::filesystem::path project_root(Language language, const std::filesystem::path& file,
                                   const std::filesystem::path& workspace);

/// The language servers for `language`, in order of preference, whose program is on the PATH of
/// `environment` (rust-analyzer may be a rustup shim that is on PATH yet cannot start: starting it
/// is what tells).
std::vector<ServerSpec> language_servers(Language language, const std::filesystem::path& root,
                                         const std::vector<std::string>& environment);

}  // namespace agent_run
