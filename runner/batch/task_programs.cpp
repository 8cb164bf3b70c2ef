#include "batch/task_programs.h"

#include "diagnostics/project_checkers.h"
#include "exec/spawn.h"

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

/// The program `words` runs (looked up on PATH when it has no '/') and every absolute path it names
/// that exists, each as a TaskProgram of `setting`.
void add_words(std::vector<TaskProgram>& programs, const std::vector<std::string>& words,
               const std::vector<std::string>& environment, const TaskProgram& setting) {
  bool command = true;
  for (const std::string& word : words) {
    if (command && (word == "!" || word == "exec" || (word.find('=') != std::string::npos && word[0] != '/'))) continue;
    std::optional<fs::path> found;
    std::error_code ec;
    if (command && word.find('/') == std::string::npos) found = find_program(word, environment);
    else if (word[0] == '/' && fs::exists(word, ec)) found = fs::path(word);
    if (found && found->is_absolute()) {
      TaskProgram program = setting;
      program.path = found->lexically_normal();
      programs.push_back(std::move(program));
    }
    command = false;
  }
}

std::string where(const Task& task, const std::string& setting) {
  auto origin = task.origins.find(setting);
  return origin != task.origins.end() ? origin->second : task.source.string();
}

fs::path expanded(const std::string& folder, const std::optional<fs::path>& home) {
  if (folder.starts_with("~/")) return home ? *home / folder.substr(2) : fs::path();
  return fs::path(folder);
}

/// `folders` (as the task or policy wrote them) shown as they are, links resolved: the folder a
/// task names is shown whole, however wide (validation refused / and HOME).
void add_named(std::vector<ShownFolder>& shown, const std::vector<std::string>& folders, bool writable,
               const SandboxSpec& spec, const std::optional<fs::path>& home) {
  for (const std::string& folder : folders) {
    fs::path path = expanded(folder, home);
    std::error_code ec;
    fs::path source = fs::canonical(path, ec);
    if (path.empty() || ec) continue;  // a folder that does not exist is not there inside either
    std::string why = std::string(writable ? "sandbox.read_write" : "sandbox.read") + " (" + spec.set_by + ")";
    shown.push_back({source, path.lexically_normal(), writable, why});
  }
}

}  // namespace

std::vector<TaskProgram> task_programs(const Task& task, const std::vector<std::string>& environment,
                                       const fs::path& root) {
  std::vector<TaskProgram> programs;
  for (std::size_t i = 0; i < task.checks.size(); ++i) {
    const Check& check = task.checks[i];
    const std::string name = "checks[" + std::to_string(i) + "]";
    if (!check.run.empty()) {
      add_words(programs, words_of(check.run), environment, {{}, "'" + name + "' (`" + check.run + "`)", where(task, name)});
    }
    if (!check.project || root.empty()) continue;
    auto checkers = choose_project_checkers(root, environment, *check.project);
    if (!checkers) continue;  // unrunnable_gate says why
    for (const ProjectChecker& checker : *checkers) {
      if (checker.argv.empty() || !fs::path(checker.argv[0]).is_absolute()) continue;
      programs.push_back({fs::path(checker.argv[0]).lexically_normal(),
                          "'" + name + "' (no_new_diagnostics: project) with the " + checker.name + " checker",
                          where(task, name)});
    }
  }
  for (const McpServerSpec& server : task.mcp_servers) {
    if (!server.is_stdio() || server.sandbox == McpSandbox::off) continue;
    TaskProgram setting{{}, "the MCP server '" + server.name + "'",
                        server.origin.empty() ? task.source.string() : server.origin, true};
    add_words(programs, server.command, environment, setting);
    std::error_code ec;
    if (server.cwd && server.cwd->is_absolute() && fs::is_directory(*server.cwd, ec)) {
      setting.path = server.cwd->lexically_normal();
      programs.push_back(setting);
    }
  }
  return programs;
}

std::vector<ShownFolder> task_shown_folders(const Task& task, const SandboxSpec& spec,
                                            const std::vector<std::string>& environment, const fs::path& root,
                                            const std::optional<fs::path>& home) {
  std::vector<ShownFolder> shown;
  for (const TaskProgram& program : task_programs(task, environment, root)) {
    for (ShownFolder& folder : folders_for_program(program.path, home, program.setting)) shown.push_back(std::move(folder));
  }
  std::vector<std::string> task_env;
  for (const auto& [name, variable] : task.env) task_env.push_back(name + "=" + variable.value);
  for (ShownFolder& folder : program_folders(task_env, home)) {
    folder.why = "env: (" + folder.why + ")";
    shown.push_back(std::move(folder));
  }
  add_named(shown, spec.read, false, spec, home);
  add_named(shown, spec.read_write, true, spec, home);
  return shown;
}

}  // namespace agent_run
