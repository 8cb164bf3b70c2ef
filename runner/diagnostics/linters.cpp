#include "diagnostics/linters.h"

#include "base/files.h"
#include "base/text.h"
#include "exec/attempt_sandbox.h"
#include "exec/child_process.h"
#include "exec/process.h"

namespace agent_run {

namespace {

using SteadyClock = std::chrono::steady_clock;

constexpr std::chrono::milliseconds k_kill_margin{60};

/// `name` in the project's node_modules/.bin, else on PATH.
std::optional<std::filesystem::path> find_node_tool(const std::string& name, const std::filesystem::path& root,
                                                    const std::vector<std::string>& environment) {
  std::error_code ec;
  std::filesystem::path local = root / "node_modules/.bin" / name;
  if (std::filesystem::exists(local, ec)) return local;
  return find_program(name, environment);
}

bool has_eslint_config(const std::filesystem::path& root) {
  std::error_code ec;
  for (const char* name : {"eslint.config.js", "eslint.config.mjs", "eslint.config.cjs", "eslint.config.ts"}) {
    if (std::filesystem::exists(root / name, ec)) return true;
  }
  return false;
}

/// `go test -c` (the type errors of the file's package compiled with its tests, so that a caller in a
/// _test.go file broken by a rename is reported; with -overlay for the content before the edit),
/// then, when it is clean, `go vet -json` (its findings, as warnings). `-gcflags=-e`: every error of
/// the package, not the compiler's first ten, so the count of the rest is true; `-vet=off`: vet runs
/// second, on its own; `-o /dev/null`: the test binary is linked, never kept (`-ldflags=-s -w`: without
/// its symbol tables, a quarter less time: 0.7 s instead of 0.95 s for gorilla/mux with a warm cache,
/// Go 1.19; go build takes 0.25 s but reads no test file, and `go vet` reports only the first type
/// error of a package that has no external test package).
std::optional<LinterCommand> go_linter(const std::filesystem::path& file, const std::filesystem::path& root,
                                       const std::vector<std::string>& environment,
                                       const std::optional<EarlierContent>& earlier) {
  auto go = find_program("go", environment);
  if (!go) return std::nullopt;
  LinterCommand command{"go test -c + go vet",
                        {go->string(), "test", "-c", "-o", "/dev/null", "-vet=off", "-gcflags=-e", "-ldflags=-s -w"},
                        {go->string(), "version"},
                        root,
                        LinterFormat::go_build,
                        {},
                        earlier.has_value()};
  if (earlier) {
    // An empty replacement is go's way to say the file does not exist (a file the edit created).
    Json overlay = Json::object().set("Replace", Json::object().set(file.string(), earlier->copy.string()));
    command.go_overlay = (earlier->folder / "overlay.json").string();
    if (!write_file_atomically(earlier->written_at / "overlay.json", overlay.dump())) return std::nullopt;
    command.argv.push_back("-overlay=" + command.go_overlay);
  }
  std::vector<std::string> targets;
  std::error_code ec;
  if (std::filesystem::exists(root / "go.mod", ec) || std::filesystem::exists(root / "go.work", ec)) {
    std::filesystem::path package = file.parent_path().lexically_relative(root);
    targets.push_back(package == "." ? "." : "./" + package.string());
  } else {  // no module: the directory's files as an ad-hoc package
    command.cwd = file.parent_path();
    for (const auto& entry : std::filesystem::directory_iterator(file.parent_path(), ec)) {
      std::string name = entry.path().filename().string();
      bool deleted = earlier && earlier->copy.empty() && entry.path() == file;
      if (entry.path().extension() == ".go" && !deleted) targets.push_back(name);  // its tests too
    }
  }
  command.argv.insert(command.argv.end(), targets.begin(), targets.end());
  if (!earlier) {
    command.then_argv = {go->string(), "vet", "-json"};
    command.then_argv.insert(command.then_argv.end(), targets.begin(), targets.end());
  }
  return command;
}

std::optional<LinterCommand> python_linter(const std::filesystem::path& target, const std::filesystem::path& root,
                                           const std::vector<std::string>& environment) {
  if (auto ruff = find_program("ruff", environment)) {
    return LinterCommand{"ruff",
                         {ruff->string(), "check", "--output-format=concise", "--no-cache", target.string()},
                         {ruff->string(), "--version"},
                         root,
                         LinterFormat::ruff,
                         {},
                         false};
  }
  for (const char* name : {"pyflakes3", "pyflakes"}) {
    if (auto pyflakes = find_program(name, environment)) {
      return LinterCommand{"pyflakes",
                           {pyflakes->string(), target.string()},
                           {pyflakes->string(), "--version"},
                           root,
                           LinterFormat::pyflakes,
                           {},
                           false};
    }
  }
  return std::nullopt;
}

std::optional<LinterCommand> typescript_linter(Language language, const std::filesystem::path& file,
                                               const std::filesystem::path& root,
                                               const std::vector<std::string>& environment) {
  auto eslint = find_node_tool("eslint", root, environment);
  if (eslint && has_eslint_config(root)) {
    return LinterCommand{"eslint",
                         {eslint->string(), "-f", "json", file.string()},
                         {eslint->string(), "--version"},
                         root,
                         LinterFormat::eslint_json,
                         {},
                         false};
  }
  auto tsc = find_node_tool("tsc", root, environment);
  if (!tsc) return std::nullopt;
  LinterCommand command{"tsc",
                        {tsc->string(), "--noEmit", "--pretty", "false"},
                        {tsc->string(), "--version"},
                        root,
                        LinterFormat::tsc,
                        {},
                        false};
  command.whole_project = true;
  std::error_code ec;
  if (std::filesystem::exists(root / "tsconfig.json", ec)) {
    command.argv.insert(command.argv.end(), {"-p", root.string()});
  } else {
    command.argv.insert(command.argv.end(), {"--skipLibCheck", "--target", "es2022", "--moduleResolution", "node"});
    if (language == Language::javascript) command.argv.push_back("--allowJs");
    command.argv.push_back(file.string());
  }
  return command;
}

std::optional<LinterCommand> c_family_linter(Language language, const std::filesystem::path& file,
                                             const std::filesystem::path& target, const std::filesystem::path& root,
                                             const std::vector<std::string>& environment) {
  std::vector<std::pair<const char*, bool>> compilers =  // (program, is gcc)
      language == Language::c ? std::vector<std::pair<const char*, bool>>{{"gcc", true}, {"clang", false}}
                              : std::vector<std::pair<const char*, bool>>{{"g++", true}, {"clang++", false}};
  for (const auto& [name, is_gcc] : compilers) {
    auto compiler = find_program(name, environment);
    if (!compiler) continue;
    LinterCommand command{
        name, {compiler->string(), "-fsyntax-only"}, {compiler->string(), "--version"}, root, LinterFormat::gcc, {},
        false};
    command.argv.push_back(is_gcc ? "-fdiagnostics-plain-output" : "-fno-caret-diagnostics");
    command.argv.push_back(is_gcc ? "-fno-diagnostics-color" : "-fno-color-diagnostics");
    command.argv.push_back(is_gcc ? "-fmax-errors=0" : "-ferror-limit=0");  // every error: the count tells the truth
    if (auto flags = read_file_beneath(root, "compile_flags.txt", k_project_file_cap)) {
      for (const std::string& flag : split(*flags, '\n')) {
        if (!trim(flag).empty()) command.argv.emplace_back(trim(flag));
      }
    }
    if (target != file) command.argv.insert(command.argv.end(), {"-iquote", file.parent_path().string()});
    command.argv.push_back(target.string());
    return command;
  }
  return std::nullopt;
}

std::optional<LinterCommand> shell_linter(const std::filesystem::path& target, const std::filesystem::path& root,
                                          const std::vector<std::string>& environment) {
  auto content = read_file_beneath(target.parent_path(), target.filename().string(), k_project_file_cap);
  bool has_shebang = content && content->rfind("#!", 0) == 0;
  if (auto shellcheck = find_program("shellcheck", environment)) {
    LinterCommand command{"shellcheck",
                          {shellcheck->string(), "-f", "gcc"},
                          {shellcheck->string(), "--version"},
                          root,
                          LinterFormat::shellcheck,
                          {},
                          false};
    if (!has_shebang) command.argv.insert(command.argv.end(), {"-s", "bash"});
    command.argv.push_back(target.string());
    return command;
  }
  if (auto bash = find_program("bash", environment)) {
    return LinterCommand{"bash -n",
                         {bash->string(), "-n", target.string()},
                         {bash->string(), "--version"},
                         root,
                         LinterFormat::bash_n,
                         {},
                         false};
  }
  return std::nullopt;
}

std::optional<LinterCommand> rust_linter(const std::filesystem::path& root,
                                         const std::vector<std::string>& environment) {
  auto cargo = find_program("cargo", environment);
  std::error_code ec;
  if (!cargo || !std::filesystem::exists(root / "Cargo.toml", ec)) return std::nullopt;
  return LinterCommand{"cargo check",
                       {cargo->string(), "check", "--offline", "--message-format", "short"},
                       {cargo->string(), "--version"},
                       root,
                       LinterFormat::gcc,
                       {},
                       false,
                       true};
}

}  // namespace

std::optional<LinterCommand> linter_for(Language language, const std::filesystem::path& file,
                                        const std::filesystem::path& root, const std::vector<std::string>& environment,
                                        const std::optional<EarlierContent>& earlier) {
  const std::filesystem::path target = earlier ? earlier->copy : file;
  if (earlier && earlier->copy.empty() && language != Language::go) return std::nullopt;  // only go can "delete"
  switch (language) {
    case Language::go: return go_linter(file, root, environment, earlier);
    case Language::python: return python_linter(target, root, environment);
    case Language::c:
    case Language::cpp: return c_family_linter(language, file, target, root, environment);
    case Language::shell: return shell_linter(target, root, environment);
    case Language::typescript:
    case Language::javascript:  // whole-project tools: a copy elsewhere would not check the same thing
      if (earlier) return std::nullopt;
      return typescript_linter(language, file, root, environment);
    case Language::rust:
      if (earlier) return std::nullopt;
      return rust_linter(root, environment);
    default: return std::nullopt;
  }
}

LinterResult run_linter(const LinterCommand& command, const std::vector<std::string>& environment,
                        SteadyClock::time_point deadline, const AttemptSandbox* sandbox) {
  LinterResult result;
  // The kill after a timeout and reading the output also fit in the budget.
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - SteadyClock::now()) - k_kill_margin;
  if (left.count() <= 0) {
    result.failure = "no time left";
    return result;
  }
  ProcessSpec spec;
  spec.argv = command.argv;
  spec.cwd = command.cwd;
  spec.timeout = left;
  spec.kill_grace = k_kill_margin / 2;
  std::vector<std::string> env;
  for (const std::string& entry : environment) {
    if (entry.rfind("LC_ALL=", 0) != 0) env.push_back(entry);
  }
  env.push_back("LC_ALL=C");
  spec.environment = std::move(env);
  auto ran = run_process(in_attempt_sandbox(sandbox, std::move(spec)));
  if (!ran) {
    result.failure = ran.error().message;
    return result;
  }
  if (ran->timed_out) {
    result.failure = command.name + " did not finish in time";
    return result;
  }
  result.finished = true;
  result.problems = parse_linter_output(command.format, ran->output, ran->exit_code, command.cwd, command.argv.back());
  if (result.problems.empty() && !command.then_argv.empty()) {  // clean: the second opinion (go vet)
    LinterCommand then = command;
    then.argv = command.then_argv;
    then.then_argv.clear();
    then.format = LinterFormat::go_vet;
    LinterResult second = run_linter(then, environment, deadline, sandbox);
    if (second.finished) result.problems = std::move(second.problems);
  }
  return result;
}

}  // namespace agent_run
