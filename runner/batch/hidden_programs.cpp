#include "batch/hidden_programs.h"

#include "base/paths.h"
#include "diagnostics/project_checkers.h"
#include "exec/sandbox_layout.h"

#include <unistd.h>

#include <sstream>

namespace agent_run {

namespace {

namespace fs = std::filesystem;

/// The words of a shell command, split at blanks, quotes dropped: enough to find its program and the
/// absolute paths it names (a check's `run:` is a shell command; its exact parse does not matter here).
std::vector<std::string> words_of(const std::string& command) {
  std::vector<std::string> words;
  std::string word;
  for (char c : command) {
    if (c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' || c == '|' || c == '(' || c == ')') {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
    } else if (c != '"' && c != '\'') {
      word.push_back(c);
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

std::vector<std::string> path_of(const std::vector<std::string>& environment) {
  for (const std::string& entry : environment) {
    if (entry.rfind("PATH=", 0) != 0) continue;
    std::vector<std::string> folders;
    std::stringstream list(entry.substr(5));
    for (std::string folder; std::getline(list, folder, ':');) {
      if (!folder.empty()) folders.push_back(folder);
    }
    return folders;
  }
  return {};
}

bool executable(const fs::path& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

/// Where the sandbox hides `path` (the folder it replaces), unless it is in `workspace`.
std::optional<fs::path> hidden_at(const fs::path& path, const fs::path& workspace) {
  if (!workspace.empty() && is_at_or_under(path, workspace)) return std::nullopt;
  return private_folder_holding(path);
}

/// `program` hidden in the sandbox: the one PATH finds on this machine, when the sandbox hides it
/// and no folder later on PATH that the sandbox shows holds one of that name.
std::optional<std::pair<fs::path, fs::path>> hidden_on_path(const std::string& program,
                                                            const std::vector<std::string>& path,
                                                            const fs::path& workspace) {
  std::optional<std::pair<fs::path, fs::path>> first;
  for (const std::string& folder : path) {
    const fs::path candidate = fs::path(folder) / program;
    if (!executable(candidate)) continue;
    auto hidden = hidden_at(candidate, workspace);
    if (!hidden) return std::nullopt;  // the sandbox finds this one: the hidden ones before it are skipped there
    if (!first) first = std::make_pair(candidate, *hidden);
  }
  return first;
}

/// The first word of `words` that names a program or a file the sandbox hides: the command (looked up
/// on PATH when it has no '/'), then every absolute path that exists.
std::optional<std::pair<fs::path, fs::path>> hidden_in(const std::vector<std::string>& words,
                                                       const std::vector<std::string>& path, const fs::path& workspace) {
  bool command = true;
  for (const std::string& word : words) {
    if (command && (word == "!" || word == "exec" || (word.find('=') != std::string::npos && word[0] != '/'))) continue;
    if (command && word.find('/') == std::string::npos) {
      if (auto hidden = hidden_on_path(word, path, workspace)) return hidden;
    } else if (word[0] == '/') {
      std::error_code ec;
      if (fs::exists(word, ec)) {
        if (auto folder = hidden_at(word, workspace)) return std::make_pair(fs::path(word), *folder);
      }
    }
    command = false;
  }
  return std::nullopt;
}

std::string where(const Task& task, const std::string& setting) {
  auto origin = task.origins.find(setting);
  return origin != task.origins.end() ? origin->second : task.source.string();
}

std::string because(const fs::path& program, const fs::path& folder) {
  return program.string() + ", which is under " + folder.string() + " on this machine: the sandbox replaces " +
         folder.string() + " with an empty folder of its own, so there it is not found; move it out of " +
         folder.string() + " (or into the workspace), or run with the sandbox off";
}

}  // namespace

std::optional<HiddenProgram> program_hidden_by_sandbox(const Task& task, const SandboxSpec& sandbox,
                                                       const std::vector<std::string>& environment,
                                                       const fs::path& workspace, const fs::path& root) {
  if (sandbox.mode == SandboxMode::off) return std::nullopt;
  const std::vector<std::string> path = path_of(environment);
  for (std::size_t i = 0; i < task.checks.size(); ++i) {
    const Check& check = task.checks[i];
    const std::string name = "checks[" + std::to_string(i) + "]";
    if (!check.run.empty()) {
      if (auto hidden = hidden_in(words_of(check.run), path, workspace)) {
        return HiddenProgram{where(task, name), "'" + name + "' (`" + check.run + "`) runs " +
                                                    because(hidden->first, hidden->second)};
      }
    }
    if (check.project && !root.empty()) {
      auto checkers = choose_project_checkers(root, environment, *check.project);
      if (!checkers) continue;  // unrunnable_gate says why
      for (const ProjectChecker& checker : *checkers) {
        if (checker.argv.empty()) continue;
        if (auto folder = hidden_at(checker.argv[0], workspace)) {
          return HiddenProgram{where(task, name), "'" + name + "' (no_new_diagnostics: project) would run the " +
                                                      checker.name + " checker " + because(checker.argv[0], *folder)};
        }
      }
    }
  }
  for (const McpServerSpec& server : task.mcp_servers) {
    if (!server.is_stdio() || server.sandbox == McpSandbox::off) continue;
    if (auto hidden = hidden_in(server.command, path, workspace)) {
      return HiddenProgram{server.origin.empty() ? task.source.string() : server.origin,
                           "the MCP server '" + server.name + "' runs " + because(hidden->first, hidden->second) +
                               " (or give the server `sandbox: off`)",
                           true};
    }
  }
  return std::nullopt;
}

}  // namespace agent_run
