#include "diagnostics/project_checkers.h"

#include "base/json.h"
#include "base/text.h"
#include "diagnostics/problems.h"
#include "exec/child_process.h"

#include <algorithm>

namespace agent_run {

namespace {

namespace fs = std::filesystem;

constexpr std::size_t k_shown_lines = 10;
constexpr std::size_t k_max_walked = 50000;  // entries looked at when listing a tree's files

bool path_exists(const fs::path& path) {
  std::error_code ec;
  return fs::exists(path, ec);
}

/// `name` in the project's node_modules/.bin, else on PATH.
std::optional<fs::path> node_tool(const std::string& name, const fs::path& root,
                                  const std::vector<std::string>& environment) {
  if (path_exists(root / "node_modules/.bin" / name)) return root / "node_modules/.bin" / name;
  return find_program(name, environment);
}

bool has_eslint_config(const fs::path& root) {
  for (const char* name : {"eslint.config.js", "eslint.config.mjs", "eslint.config.cjs", "eslint.config.ts"}) {
    if (path_exists(root / name)) return true;
  }
  return false;
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); !from.empty() && at != std::string::npos;
       at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

/// The compile_commands.json of the project at `root`: at its top, else in build/.
std::optional<fs::path> compile_database_of(const fs::path& root) {
  for (const char* place : {"compile_commands.json", "build/compile_commands.json"}) {
    if (path_exists(root / place)) return root / place;
  }
  return std::nullopt;
}

/// The compiler over the entries of the project's compile_commands.json, each entry's compiler
/// resolved on PATH; nullopt when there is no readable database or a compiler is not installed.
std::optional<ProjectChecker> compiler_checker(const fs::path& root, const std::vector<std::string>& environment) {
  auto database = compile_database_of(root);
  auto entries = database ? read_compile_database(*database) : Expected<std::vector<CompileEntry>>(make_error(""));
  if (!entries) return std::nullopt;
  std::string inputs;
  for (CompileEntry& entry : *entries) {
    auto compiler = find_program(entry.arguments.front(), environment);
    if (!compiler) return std::nullopt;
    entry.arguments.front() = compiler->string();
    std::string line = entry.directory.string() + " " + entry.file.string() + ":";
    for (const std::string& word : entry.arguments) line += " " + word;
    inputs += replace_all(line, root.string(), "<root>") + "\n";
  }
  const std::string first = entries->front().arguments.front();
  ProjectChecker checker;
  checker.name = "compiler";
  checker.argv = {first, "-fsyntax-only"};  // what the report and the cache key name; each entry runs its own
  checker.version_argv = {first, "--version"};
  checker.linter_format = LinterFormat::gcc;
  checker.finding_exits = {1};
  checker.compile_entries = std::move(*entries);
  checker.compile_root = root;
  checker.key_inputs = std::move(inputs);
  return checker;
}

/// Where a checker's program is looked for.
enum class Lookup { on_path, node_modules_first };

/// One checker a task's `checker:` may name: its program, how it is found and run, and what to
/// install when it is missing. The compiler's argv comes from compile_commands.json instead.
struct CheckerRow {
  std::string name;
  std::string program;  // empty: the compiler of each compile_commands.json entry
  Lookup lookup = Lookup::on_path;
  std::vector<std::string> arguments;  // after the program
  std::vector<std::string> version_arguments;
  ProjectFormat format = ProjectFormat::linter;
  LinterFormat linter_format = LinterFormat::gcc;
  std::vector<int> finding_exits;
  std::vector<std::string> file_suffixes;
  std::string target_dir_variable;
  std::string install;  // the hint when it is not installed
};

/// The checkers by name, in the order they are chosen in (project_checker_names()).
const std::vector<CheckerRow>& checker_rows() {
  static const std::vector<CheckerRow> k_rows = {
      {.name = "pyright",
       .program = "pyright",
       .lookup = Lookup::node_modules_first,
       .arguments = {"--outputjson"},
       .version_arguments = {"--version"},
       .format = ProjectFormat::pyright_json,
       .finding_exits = {1},
       .install = "npm install pyright"},
      {.name = "ruff",
       .program = "ruff",
       .arguments = {"check", "--output-format=concise", "--no-cache", "."},
       .version_arguments = {"--version"},
       .linter_format = LinterFormat::ruff,
       .finding_exits = {1},
       .install = "pipx install ruff"},
      {.name = "tsc",
       .program = "tsc",
       .lookup = Lookup::node_modules_first,
       .arguments = {"--noEmit", "--pretty", "false", "-p"},  // and the project, by what the tree holds
       .version_arguments = {"--version"},
       .linter_format = LinterFormat::tsc,
       .finding_exits = {1, 2},
       .install = "npm install typescript"},
      {.name = "eslint",
       .program = "eslint",
       .lookup = Lookup::node_modules_first,
       .arguments = {"-f", "json", "."},
       .version_arguments = {"--version"},
       .linter_format = LinterFormat::eslint_json,
       .finding_exits = {1},
       .install = "npm install eslint"},
      {.name = "go vet",
       .program = "go",
       .arguments = {"vet", "-json", "./..."},
       .version_arguments = {"version"},
       .linter_format = LinterFormat::go_vet,
       .finding_exits = {1, 2},
       .install = "apt-get install golang-go"},
      {.name = "cargo check",
       .program = "cargo",
       .arguments = {"check", "--offline", "--message-format", "short"},
       .version_arguments = {"--version"},
       .finding_exits = {101},
       .target_dir_variable = "CARGO_TARGET_DIR",
       .install = "apt-get install cargo, or rustup"},
      {.name = "shellcheck",
       .program = "shellcheck",
       .arguments = {"-f", "gcc", "-s", "bash"},
       .version_arguments = {"--version"},
       .linter_format = LinterFormat::shellcheck,
       .finding_exits = {1},
       .file_suffixes = {".sh", ".bash"},
       .install = "apt-get install shellcheck"},
      {.name = "compiler",
       .install = "write compile_commands.json in setup (cmake -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, or bear -- make) "
                  "and install its compiler (apt-get install g++)"},
  };
  return k_rows;
}

const CheckerRow* checker_row(const std::string& name) {
  for (const CheckerRow& row : checker_rows()) {
    if (row.name == name) return &row;
  }
  return nullptr;
}

std::vector<std::string> with_program(const fs::path& program, const std::vector<std::string>& arguments) {
  std::vector<std::string> argv = {program.string()};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  return argv;
}

/// The checker called `name`, when its program is installed (and, for tsc and eslint, the project
/// has what it reads).
std::optional<ProjectChecker> named_checker(const std::string& name, const fs::path& root,
                                            const std::vector<std::string>& environment) {
  const CheckerRow* row = checker_row(name);
  if (!row) return std::nullopt;
  if (row->program.empty()) return compiler_checker(root, environment);
  auto program = row->lookup == Lookup::node_modules_first ? node_tool(row->program, root, environment)
                                                           : find_program(row->program, environment);
  if (!program) return std::nullopt;
  ProjectChecker checker{.name = row->name,
                         .argv = with_program(*program, row->arguments),
                         .version_argv = with_program(*program, row->version_arguments),
                         .format = row->format,
                         .linter_format = row->linter_format,
                         .finding_exits = row->finding_exits,
                         .file_suffixes = row->file_suffixes,
                         .target_dir_variable = row->target_dir_variable};
  if (name == "tsc") {
    const bool js_only = !path_exists(root / "tsconfig.json") && path_exists(root / "jsconfig.json");
    checker.argv.push_back(js_only ? "jsconfig.json" : ".");
  }
  return checker;
}

/// Where named_checker looks for the checker called `name`.
std::string where_looked(const std::string& name) {
  const CheckerRow* row = checker_row(name);
  if (row && row->program.empty()) {
    return "no readable compile_commands.json at the project's top or in build/, or a compiler it names is not on PATH";
  }
  return row && row->lookup == Lookup::node_modules_first ? "neither in the project's node_modules/.bin nor on PATH"
                                                          : "not on PATH";
}

/// What to install for the checker called `name`.
std::string install_hint(const std::string& name) {
  const CheckerRow* row = checker_row(name);
  return row ? row->install : name;
}

/// A task's own command, run by sh; any non-zero exit with findings is findings.
ProjectChecker command_checker(const std::string& command, const std::vector<std::string>& environment) {
  auto shell = find_program("sh", environment);
  return ProjectChecker{
      .name = "command", .argv = {shell ? shell->string() : "/bin/sh", "-c", command}, .finding_exits = {-1}};
}

/// A language the project holds, the checkers that read it (in order of preference), and what to
/// say when none is installed.
struct ProjectLanguage {
  std::string name;
  std::vector<std::string> checkers;
};

std::vector<ProjectLanguage> languages_held(const fs::path& root) {
  std::vector<ProjectLanguage> held;
  if (path_exists(root / "go.mod") || path_exists(root / "go.work")) held.push_back({"Go", {"go vet"}});
  if (path_exists(root / "Cargo.toml")) held.push_back({"Rust", {"cargo check"}});
  if (path_exists(root / "tsconfig.json") || path_exists(root / "jsconfig.json")) {
    held.push_back({"TypeScript", {"tsc"}});
  } else if (has_eslint_config(root)) {
    held.push_back({"JavaScript", {"eslint"}});
  }
  if (compile_database_of(root)) held.push_back({"C/C++ (compile_commands.json)", {"compiler"}});
  if (!project_files(root, {".py", ".pyi"}).empty()) held.push_back({"Python", {"pyright", "ruff"}});
  if (held.empty() && !project_files(root, {".sh", ".bash"}).empty()) held.push_back({"shell", {"shellcheck"}});
  return held;
}

bool skipped_folder(const fs::path& folder) {
  std::string name = folder.filename().string();
  return name.starts_with(".") || name == "node_modules" || name == "target" || name == "vendor" ||
         name == "__pycache__";
}

std::string relative_to(const std::string& path, const fs::path& tree) {
  std::string relative = workspace_relative(path, tree);
  return relative.starts_with("./") ? relative.substr(2) : relative;
}

Expected<std::vector<Problem>> read_pyright(const std::string& output, const fs::path& tree) {
  std::size_t start = output.find('{');
  auto json = start == std::string::npos ? Expected<Json>(make_error("no JSON")) : parse_json(output.substr(start));
  const Json* diagnostics = json ? json->find("generalDiagnostics") : nullptr;
  if (!diagnostics || !diagnostics->is_array()) return make_error("pyright's --outputjson answer cannot be read");
  std::vector<Problem> problems;
  for (const Json& item : diagnostics->as_array()) {
    std::string severity = item.get_string("severity");
    if (severity != "error" && severity != "warning") continue;
    const Json* range = item.find("range");
    const Json* start_at = range ? range->find("start") : nullptr;
    auto number = [&](const char* key) {
      const Json* value = start_at ? start_at->find(key) : nullptr;
      return value && value->is_integer() ? static_cast<int>(value->as_int()) + 1 : 1;
    };
    problems.push_back(Problem{relative_to(item.get_string("file"), tree), number("line"), number("character"),
                               severity, item.get_string("message"), item.get_string("rule"), false});
  }
  return problems;
}

std::string first_lines(const std::string& output) {
  const std::string text(trim(output));
  if (text.empty()) return "(no output)";
  std::vector<std::string> lines = split(text, '\n');
  if (lines.size() > k_shown_lines) lines.resize(k_shown_lines);
  return join(lines, "\n");
}

}  // namespace

const std::vector<std::string>& project_checker_names() {
  static const std::vector<std::string> k_names = [] {
    std::vector<std::string> names;
    for (const CheckerRow& row : checker_rows()) names.push_back(row.name);
    return names;
  }();
  return k_names;
}

Expected<std::vector<ProjectChecker>> choose_project_checkers(const fs::path& root,
                                                              const std::vector<std::string>& environment,
                                                              const ProjectCheckerChoice& choice) {
  if (!choice.command.empty()) return std::vector<ProjectChecker>{command_checker(choice.command, environment)};
  if (!choice.checker.empty()) {
    auto checker = named_checker(choice.checker, root, environment);
    if (!checker) {
      return make_error("the checker '" + choice.checker + "' it names is not installed (" +
                        where_looked(choice.checker) + "); install it: " + install_hint(choice.checker));
    }
    return std::vector<ProjectChecker>{std::move(*checker)};
  }
  std::vector<ProjectLanguage> held = languages_held(root);
  if (held.empty()) {
    return make_error(
        "the project holds nothing a project checker reads (go.mod, Cargo.toml, tsconfig.json, "
        "jsconfig.json, eslint.config.*, compile_commands.json, a .py or a .sh file); name one with "
        "'checker:' or give a 'command:'");
  }
  std::vector<ProjectChecker> checkers;
  for (const ProjectLanguage& language : held) {
    std::optional<ProjectChecker> found;
    for (const std::string& name : language.checkers) {
      if ((found = named_checker(name, root, environment))) break;
    }
    if (!found) {
      std::vector<std::string> hints;
      for (const std::string& name : language.checkers) hints.push_back(install_hint(name));
      return make_error("the project holds " + language.name + " but no checker for it is installed (" +
                        join(language.checkers, " or ") + ", " + where_looked(language.checkers.front()) +
                        "); install one (" + join(hints, ", or ") + "), or name another with 'checker:'");
    }
    checkers.push_back(std::move(*found));
  }
  return checkers;
}

std::vector<std::string> project_files(const fs::path& tree, const std::vector<std::string>& suffixes) {
  std::vector<std::string> files;
  std::error_code ec;
  fs::recursive_directory_iterator walk(tree, fs::directory_options::skip_permission_denied, ec);
  std::size_t walked = 0;
  for (; !ec && walk != fs::recursive_directory_iterator() && walked < k_max_walked; walk.increment(ec), ++walked) {
    const fs::directory_entry& entry = *walk;
    if (entry.is_directory(ec) && !entry.is_symlink(ec)) {
      if (skipped_folder(entry.path())) walk.disable_recursion_pending();
      continue;
    }
    std::string name = entry.path().filename().string();
    bool wanted = std::any_of(suffixes.begin(), suffixes.end(),
                              [&](const std::string& suffix) { return name.ends_with(suffix); });
    if (wanted && entry.is_regular_file(ec)) files.push_back(entry.path().lexically_relative(tree).string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

Expected<std::vector<Problem>> read_project_problems(const ProjectChecker& checker, const std::string& output,
                                                     int exit_code, const fs::path& tree) {
  const bool any_finding_exit = checker.finding_exits == std::vector<int>{-1};
  const bool finding_exit =
      exit_code != 0 && (any_finding_exit || std::find(checker.finding_exits.begin(), checker.finding_exits.end(),
                                                       exit_code) != checker.finding_exits.end());
  if (exit_code != 0 && !finding_exit) {
    return make_error(checker.name + " exited " + std::to_string(exit_code) + ":\n" + first_lines(output));
  }
  std::vector<Problem> problems;
  if (checker.format == ProjectFormat::pyright_json) {
    auto read = read_pyright(output, tree);
    if (!read) return make_error(read.error().message + ":\n" + first_lines(output));
    problems = std::move(*read);
  } else {
    // 0 as the exit code: a non-zero one with nothing readable is an error here, not one problem.
    problems = parse_linter_output(checker.linter_format, output, 0, tree, tree);
    for (Problem& problem : problems) problem.path = relative_to(problem.path, tree);
  }
  if (finding_exit && problems.empty()) {
    return make_error(checker.name + " exited " + std::to_string(exit_code) +
                      " but printed no problem agent-run can read:\n" + first_lines(output));
  }
  return problems;
}

}  // namespace agent_run
