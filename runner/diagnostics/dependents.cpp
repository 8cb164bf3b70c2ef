#include "diagnostics/dependents.h"

#include "base/files.h"
#include "base/text.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>

namespace agent_run {

namespace {

using Kind = WrittenImport::Kind;

/// Which kind of imports a file writes, from its extension; nullopt: not a source file the index reads.
std::optional<Kind> import_kind(const std::filesystem::path& file) {
  static constexpr std::array<std::pair<std::string_view, Kind>, 18> k_kinds = {{
      {".py", Kind::python},   {".pyi", Kind::python},  {".ts", Kind::script},   {".tsx", Kind::script},
      {".mts", Kind::script},  {".cts", Kind::script},  {".js", Kind::script},   {".jsx", Kind::script},
      {".mjs", Kind::script},  {".cjs", Kind::script},  {".c", Kind::include},   {".h", Kind::include},
      {".cc", Kind::include},  {".cpp", Kind::include}, {".cxx", Kind::include}, {".hh", Kind::include},
      {".hpp", Kind::include}, {".hxx", Kind::include},
  }};
  const std::string extension = file.extension().string();
  for (const auto& [known, kind] : k_kinds) {
    if (extension == known) return kind;
  }
  return std::nullopt;
}

bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

// ---- Python ------------------------------------------------------------------------------------

/// The logical lines of Python source, strings and comments left out: a statement continues over
/// a backslash at the end of a line and inside brackets; `;` ends one.
std::vector<std::string> python_statements(std::string_view text) {
  std::vector<std::string> statements(1);
  int depth = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '#') {
      while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
    } else if (c == '\'' || c == '"') {
      bool triple = text.compare(i, 3, std::string(3, c)) == 0;
      std::size_t end = i + (triple ? 3 : 1);
      while (end < text.size()) {
        if (text[end] == '\\') {
          end += 2;
        } else if (triple ? text.compare(end, 3, std::string(3, c)) == 0 : text[end] == c || text[end] == '\n') {
          break;
        } else {
          ++end;
        }
      }
      bool unclosed = !triple && end < text.size() && text[end] == '\n';  // the newline still ends the line
      i = std::min(text.size(), end + (triple ? 3 : unclosed ? 0 : 1)) - 1;
      statements.back() += ' ';  // a string separates words, never joins them
    } else if (c == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {
      ++i;
      statements.back() += ' ';
    } else if ((c == '\n' && depth == 0) || c == ';') {
      statements.emplace_back();
    } else {
      if (c == '(' || c == '[' || c == '{') ++depth;
      if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
      statements.back() += c == '\n' || c == '\t' || c == '\r' ? ' ' : c;
    }
  }
  return statements;
}

/// The words of a comma-separated import list, each without its `as` name and its brackets.
std::vector<std::string> import_list(std::string_view list) {
  std::vector<std::string> names;
  for (const std::string& piece : split(list, ',')) {
    std::string item;
    for (char c : piece) {
      if (c != '(' && c != ')') item += c;
    }
    std::string_view word = trim(item);
    word = word.substr(0, word.find_first_of(" \t"));  // drops ` as alias`
    if (!word.empty() && word != "*") names.emplace_back(word);
  }
  return names;
}

/// `import a.b, c` and `from ..a import b, c` as imports; nothing for another statement.
void add_python_statement(std::string_view statement, std::vector<WrittenImport>& imports) {
  statement = trim(statement);
  if (statement.starts_with("import ")) {
    for (const std::string& module : import_list(statement.substr(7)))
      imports.push_back(WrittenImport{Kind::python, module, 0, {}});
    return;
  }
  if (!statement.starts_with("from ")) return;
  std::string_view rest = trim(statement.substr(5));
  WrittenImport written{Kind::python, "", 0, {}};
  while (!rest.empty() && rest.front() == '.') {
    ++written.level;
    rest.remove_prefix(1);
  }
  rest = trim(rest);
  auto at_import = [&] { return rest.starts_with("import") && (rest.size() == 6 || !identifier_char(rest[6])); };
  std::size_t end = 0;
  while (!(written.level > 0 && at_import()) && end < rest.size() && (identifier_char(rest[end]) || rest[end] == '.'))
    ++end;
  written.module = std::string(rest.substr(0, end));
  rest = trim(rest.substr(end));
  if (!at_import()) return;
  if (written.module.empty() && written.level == 0) return;
  written.names = import_list(rest.substr(6));
  imports.push_back(std::move(written));
}

// ---- TypeScript and JavaScript -----------------------------------------------------------------

/// Whether `text` up to `end` ends with the word `word` (not the tail of a longer identifier).
bool ends_with_word(std::string_view text, std::size_t end, std::string_view word) {
  if (end < word.size() || text.compare(end - word.size(), word.size(), word) != 0) return false;
  std::size_t before = end - word.size();
  return before == 0 || (!identifier_char(text[before - 1]) && text[before - 1] != '.');
}

/// The end of the code before `position`, spaces skipped backwards.
std::size_t code_end_before(std::string_view text, std::size_t position) {
  while (position > 0 && std::isspace(static_cast<unsigned char>(text[position - 1]))) --position;
  return position;
}

/// Whether a string literal opening at `quote` is the module of an import, an export ... from, an
/// import() or a require().
bool is_module_literal(std::string_view text, std::size_t quote) {
  std::size_t end = code_end_before(text, quote);
  if (ends_with_word(text, end, "from") || ends_with_word(text, end, "import")) return true;
  if (end == 0 || text[end - 1] != '(') return false;
  end = code_end_before(text, end - 1);
  return ends_with_word(text, end, "require") || ends_with_word(text, end, "import");
}

bool relative_specifier(std::string_view spec) {
  return spec == "." || spec == ".." || spec.starts_with("./") || spec.starts_with("../");
}

void add_script_imports(std::string_view text, std::vector<WrittenImport>& imports) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      std::size_t close = text.find("*/", i + 2);
      i = close == std::string_view::npos ? text.size() : close + 1;
    } else if (c == '\'' || c == '"' || c == '`') {
      std::size_t end = i + 1;
      std::string literal;
      while (end < text.size() && text[end] != c && (c == '`' || text[end] != '\n')) {
        if (text[end] == '\\') ++end;
        if (end < text.size()) literal += text[end];
        ++end;
      }
      if (c != '`' && relative_specifier(literal) && is_module_literal(text, i))
        imports.push_back(WrittenImport{Kind::script, literal, 0, {}});
      i = end;
    }
  }
}

// ---- C and C++ ---------------------------------------------------------------------------------

void add_includes(std::string_view text, std::vector<WrittenImport>& imports) {
  for (const std::string& line : split(text, '\n')) {
    std::string_view rest = trim(line);
    if (!rest.starts_with("#")) continue;
    rest = trim(rest.substr(1));
    if (!rest.starts_with("include")) continue;
    rest = trim(rest.substr(7));
    if (!rest.starts_with("\"")) continue;
    std::size_t close = rest.find('"', 1);
    if (close != std::string_view::npos && close > 1)
      imports.push_back(WrittenImport{Kind::include, std::string(rest.substr(1, close - 1)), 0, {}});
  }
}

// ---- Resolution --------------------------------------------------------------------------------

/// Resolves against the files surveyed; each resolution adds the files it names.
struct Resolver {
  const FolderSurvey& survey;
  std::vector<std::filesystem::path>& targets;

  bool add_if_surveyed(const std::filesystem::path& candidate) const {
    std::filesystem::path normal = candidate.lexically_normal();
    if (!survey.files.count(normal)) return false;
    targets.push_back(std::move(normal));
    return true;
  }
  /// The module `parts` (a.b.c) under `base`: a/b/c.py, a/b/c.pyi, a/b/c/__init__.py(i).
  void python_module(std::filesystem::path base, const std::vector<std::string>& parts) const {
    for (const std::string& part : parts) base /= part;
    if (!parts.empty()) {
      add_if_surveyed(base.string() + ".py");
      add_if_surveyed(base.string() + ".pyi");
    }
    add_if_surveyed(base / "__init__.py");
    add_if_surveyed(base / "__init__.pyi");
  }
  /// `import a.b` names a and a.b; `from a import b` names a and a.b (b may be a submodule).
  void python_import(const std::filesystem::path& base, const WrittenImport& written) const {
    std::vector<std::string> parts = written.module.empty() ? std::vector<std::string>{} : split(written.module, '.');
    std::vector<std::string> prefix;
    if (written.level > 0) python_module(base, prefix);  // `from . import x` runs the package's __init__
    for (const std::string& part : parts) {
      prefix.push_back(part);
      python_module(base, prefix);
    }
    for (const std::string& name : written.names) {
      std::vector<std::string> submodule = parts;
      submodule.push_back(name);
      python_module(base, submodule);
    }
  }
  /// A relative path as TypeScript and node resolve it; the first file found.
  void script_path(const std::filesystem::path& folder, const std::string& spec) const {
    const std::filesystem::path base = (folder / spec).lexically_normal();
    const std::string text = base.string();
    const std::string extension = base.extension().string();
    static const std::array<std::pair<std::string_view, std::string_view>, 4> k_written_for = {
        {{".js", ".ts"}, {".jsx", ".tsx"}, {".mjs", ".mts"}, {".cjs", ".cts"}}};
    for (const auto& [written, source] : k_written_for) {  // './a.js' written for a.ts (ES modules in TS)
      if (extension == written && add_if_surveyed(text.substr(0, text.size() - written.size()) + std::string(source)))
        return;
    }
    if (!extension.empty() && add_if_surveyed(base)) return;
    static constexpr std::array<std::string_view, 9> k_extensions = {".ts",  ".tsx", ".d.ts", ".js", ".jsx",
                                                                     ".mts", ".cts", ".mjs",  ".cjs"};
    for (std::string_view added : k_extensions) {
      if (add_if_surveyed(text + std::string(added))) return;
    }
    for (std::string_view added : k_extensions) {
      if (add_if_surveyed((base / "index").string() + std::string(added))) return;
    }
  }
};

}  // namespace

std::vector<WrittenImport> written_imports(const std::filesystem::path& file, std::string_view text) {
  std::vector<WrittenImport> imports;
  std::optional<Kind> kind = import_kind(file);
  if (!kind) return imports;
  switch (*kind) {
    case Kind::python:
      for (const std::string& statement : python_statements(text)) add_python_statement(statement, imports);
      break;
    case Kind::script: add_script_imports(text, imports); break;
    case Kind::include: add_includes(text, imports); break;
  }
  return imports;
}

std::vector<std::filesystem::path> ImportIndex::resolve(const std::filesystem::path& file,
                                                        const std::vector<WrittenImport>& imports,
                                                        const FolderSurvey& survey) const {
  std::vector<std::filesystem::path> targets;
  Resolver resolver{survey, targets};
  const std::filesystem::path folder = file.parent_path();
  for (const WrittenImport& written : imports) {
    if (written.kind == Kind::script) {
      resolver.script_path(folder, written.module);
    } else if (written.kind == Kind::include) {
      if (!resolver.add_if_surveyed(folder / written.module)) resolver.add_if_surveyed(m_root / written.module);
    } else if (written.level > 0) {
      std::filesystem::path base = folder;
      for (int up = 1; up < written.level; ++up) base = base.parent_path();
      resolver.python_import(base, written);
    } else {
      for (const std::filesystem::path& base : {m_root, m_root / "src", folder}) resolver.python_import(base, written);
    }
  }
  std::sort(targets.begin(), targets.end());
  targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
  std::erase(targets, file);
  return targets;
}

void ImportIndex::update(const FolderSurvey& survey) {
  bool files_came_or_went = std::erase_if(m_files, [&](const auto& entry) { return !survey.files.count(entry.first); });
  std::uintmax_t budget = k_index_update_bytes;
  for (const auto& [path, stamp] : survey.files) {
    if (!import_kind(path)) continue;
    auto found = m_files.find(path);
    if (found != m_files.end() && found->second.stamp == stamp) continue;
    bool small = stamp.size <= k_largest_indexed_file;
    if (small && stamp.size > budget) continue;  // the next update reads it
    Entry entry{stamp, {}, {}};
    if (small) {
      budget -= stamp.size;
      auto text = read_file_beneath(m_root, path.lexically_relative(m_root).string(), k_largest_indexed_file);
      if (text) entry.imports = written_imports(path, *text);
    }
    entry.targets = resolve(path, entry.imports, survey);
    files_came_or_went = files_came_or_went || found == m_files.end();
    m_files.insert_or_assign(path, std::move(entry));
  }
  if (!files_came_or_went) return;
  for (auto& [path, entry] : m_files) entry.targets = resolve(path, entry.imports, survey);
}

std::vector<std::filesystem::path> ImportIndex::importers_of(const std::filesystem::path& file,
                                                             std::size_t most) const {
  std::vector<std::filesystem::path> importers;
  const std::filesystem::path normal = file.lexically_normal();
  for (const auto& [path, entry] : m_files) {
    if (importers.size() >= most) break;
    if (std::binary_search(entry.targets.begin(), entry.targets.end(), normal)) importers.push_back(path);
  }
  return importers;
}

}  // namespace agent_run
