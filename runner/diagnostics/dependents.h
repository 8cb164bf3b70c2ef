#pragma once

#include "diagnostics/workspace_survey.h"

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace agent_run {

/// One import as written in a source file, before it is resolved to the files it may name.
struct WrittenImport {
  enum class Kind { python, script, include };
  Kind kind = Kind::python;
  std::string module;               // python: dotted name after the dots; script and include: the quoted path
  int level = 0;                    // python: the leading dots of a relative import
  std::vector<std::string> names;   // python: what `from module import` names (each may be a submodule)
};

/// The imports a source file writes: Python `import a.b`, `from a import b` and relative `from .a
/// import b`; TypeScript and JavaScript `import ... from './a'`, `export ... from`, `import('./a')`
/// and `require('./a')` of relative paths only (a package import names no file of the project);
/// C and C++ `#include "a.h"`. Nothing for other files. Reads the text only, never the disk.
std::vector<WrittenImport> written_imports(const std::filesystem::path& file, std::string_view text);

/// The largest source file the index reads (a bigger one is generated, and imports nobody edits).
inline constexpr std::uintmax_t k_largest_indexed_file = 1024 * 1024;
/// The most bytes one update reads: the files past it are read by the next update.
inline constexpr std::uintmax_t k_index_update_bytes = 32 * 1024 * 1024;

/// Which source files of a project import which, kept up to date from the surveys of its root, so
/// that the check of an edit can give the language server the files that use the edited one (a
/// server publishes diagnostics only for the documents it has open). Each file is read beneath the
/// root through read_file_beneath, again only when its stamp changed; imports are resolved against
/// the files surveyed: Python module names from the root, from root/src and from the importing
/// file's folder (`pkg/mod.py`, `pkg/mod.pyi`, `pkg/mod/__init__.py`); TypeScript and JavaScript
/// paths with their extension, with .ts/.tsx/.d.ts/.js/.jsx (and .mts/.cts/.mjs/.cjs), as a folder's
/// index, and a `.js` written for a `.ts` file; C and C++ quoted includes from the including file's
/// folder, then from the root.
class ImportIndex {
 public:
  explicit ImportIndex(std::filesystem::path root) : m_root(std::move(root)) {}

  /// Reads the source files of `survey` (a survey of the root) that are new or changed since the
  /// last update, at most k_index_update_bytes of them, forgets those gone, and resolves again
  /// every file's imports when files came or went.
  void update(const FolderSurvey& survey);
  /// The files that import `file` (absolute), in path order, at most `most`.
  std::vector<std::filesystem::path> importers_of(const std::filesystem::path& file, std::size_t most) const;

 private:
  /// One source file: its stamp when it was read, what it imports as written and as resolved.
  struct Entry {
    FileStamp stamp;
    std::vector<WrittenImport> imports;
    std::vector<std::filesystem::path> targets;  // the surveyed files its imports name
  };

  std::vector<std::filesystem::path> resolve(const std::filesystem::path& file,
                                             const std::vector<WrittenImport>& imports,
                                             const FolderSurvey& survey) const;

  std::filesystem::path m_root;
  std::map<std::filesystem::path, Entry> m_files;  // absolute path -> its entry
};

}  // namespace agent_run
