#include "diagnostics/compile_database.h"

#include "base/files.h"
#include "base/json.h"

#include <algorithm>
#include <array>
#include <optional>

namespace agent_run {

namespace {

namespace fs = std::filesystem;

/// Options whose value is a path, given as the next word or joined (`-Iinclude`).
constexpr std::array<const char*, 6> k_path_options = {"-isystem", "-iquote",  "-idirafter",
                                                       "-include", "-imacros", "-I"};
/// Options dropped with the word after them: output files a syntax-only run does not write.
constexpr std::array<const char*, 4> k_dropped_with_value = {"-o", "-MF", "-MT", "-MQ"};
/// Options dropped alone.
constexpr std::array<const char*, 5> k_dropped = {"-c", "-MD", "-MMD", "-MP", "-M"};

template <std::size_t N>
bool is_one_of(const std::string& word, const std::array<const char*, N>& options) {
  return std::any_of(options.begin(), options.end(), [&](const char* option) { return word == option; });
}

fs::path absolute_from(const fs::path& path, const fs::path& directory) {
  return (path.is_absolute() ? path : directory / path).lexically_normal();
}

/// `path` (a relative one from `directory`) relative to `tree.from` when it is under it and the copy
/// holds it; nullopt otherwise.
std::optional<fs::path> in_copy(const fs::path& path, const fs::path& directory, const TreeCopy& tree) {
  const fs::path relative = absolute_from(path, directory).lexically_relative(tree.from);
  if (relative.empty() || *relative.begin() == "..") return std::nullopt;
  std::error_code ec;
  if (!fs::exists(tree.written / relative, ec)) return std::nullopt;
  return relative;
}

fs::path under(const fs::path& folder, const fs::path& relative) {
  return relative == "." ? folder : folder / relative;
}

/// `word`, a path, as the copy's when it has it, else as it was (absolute: the run's folder may move).
std::string mapped(const std::string& word, const fs::path& directory, const TreeCopy& tree) {
  auto relative = in_copy(word, directory, tree);
  return relative ? under(tree.seen, *relative).string() : absolute_from(word, directory).string();
}

/// The compiler's options for plain, complete diagnostics: gcc's or clang's, by the program's real name.
std::vector<std::string> diagnostic_options(const std::string& compiler) {
  std::error_code ec;
  fs::path real = fs::canonical(compiler, ec);
  const std::string name = (ec ? fs::path(compiler) : real).filename().string();
  if (name.find("clang") != std::string::npos)
    return {"-fsyntax-only", "-fno-caret-diagnostics", "-fno-color-diagnostics", "-ferror-limit=0"};
  return {"-fsyntax-only", "-fdiagnostics-plain-output", "-fno-diagnostics-color", "-fmax-errors=0"};
}

}  // namespace

std::vector<std::string> shell_words(const std::string& text) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote == '\'') {
      if (c == '\'') quote = 0;
      else word += c;
    } else if (c == '\\' && i + 1 < text.size() &&
               (quote == 0 || std::string("\"\\$`").find(text[i + 1]) != std::string::npos)) {
      word += text[++i];
      in_word = true;
    } else if (quote == '"') {
      if (c == '"') quote = 0;
      else word += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

Expected<std::vector<CompileEntry>> read_compile_database(const fs::path& database) {
  auto text = read_file_beneath(database.parent_path(), database.filename().string(), k_compile_database_cap);
  if (!text) return make_error(database.string() + ": " + text.error().message);
  auto json = parse_json(*text);
  if (!json || !json->is_array()) return make_error(database.string() + ": not a JSON array of compile commands");
  std::vector<CompileEntry> entries;
  for (const Json& item : json->as_array()) {
    CompileEntry entry;
    entry.directory = item.get_string("directory");
    const std::string file = item.get_string("file");
    if (!entry.directory.is_absolute() || file.empty()) continue;
    entry.file = (fs::path(file).is_absolute() ? fs::path(file) : entry.directory / file).lexically_normal();
    if (const Json* arguments = item.find("arguments"); arguments && arguments->is_array()) {
      for (const Json& word : arguments->as_array()) {
        if (word.is_string()) entry.arguments.push_back(word.as_string());
      }
    } else {
      entry.arguments = shell_words(item.get_string("command"));
    }
    if (!entry.arguments.empty()) entries.push_back(std::move(entry));
  }
  if (entries.empty()) return make_error(database.string() + ": holds no compile command");
  return entries;
}

SyntaxCheck syntax_check_of(const CompileEntry& entry, const TreeCopy& tree) {
  SyntaxCheck check;
  auto directory = in_copy(entry.directory, entry.directory, tree);
  check.directory = directory ? under(tree.seen, *directory) : entry.directory;
  check.written_directory = directory ? under(tree.written, *directory) : entry.directory;
  check.argv.push_back(entry.arguments.front());
  for (const std::string& option : diagnostic_options(entry.arguments.front())) check.argv.push_back(option);
  const std::vector<std::string>& words = entry.arguments;
  for (std::size_t i = 1; i < words.size(); ++i) {
    const std::string& word = words[i];
    if (is_one_of(word, k_dropped)) continue;
    if (is_one_of(word, k_dropped_with_value)) {
      ++i;
      continue;
    }
    if (is_one_of(word, k_path_options) && i + 1 < words.size()) {
      check.argv.push_back(word);
      check.argv.push_back(mapped(words[++i], entry.directory, tree));
      continue;
    }
    auto joined = std::find_if(k_path_options.begin(), k_path_options.end(), [&](const char* option) {
      return word.size() > std::string_view(option).size() && word.starts_with(option);
    });
    if (joined != k_path_options.end()) {
      const std::size_t length = std::string_view(*joined).size();
      check.argv.push_back(word.substr(0, length) + mapped(word.substr(length), entry.directory, tree));
    } else if (!word.starts_with("-") && absolute_from(word, entry.directory) == entry.file) {
      check.argv.push_back(mapped(word, entry.directory, tree));  // the source file
    } else {
      check.argv.push_back(word);
    }
  }
  return check;
}

}  // namespace agent_run
