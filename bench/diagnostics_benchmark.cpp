// Prints the cold and warm latency of the per-edit diagnostics check for every checker this
// machine has, on small projects made in temporary folders. Run it with ci/bench-diagnostics.sh.
//
// cold: a new server process until it has answered for the first file (spawn, initialize, first
//       diagnostics); for a linter, its first run in a fresh project.
// warm: one edit_file-style check (EditChecker::check_edit) on a warm server or linter, the edits
//       alternating between two contents with different errors, so every check has fresh work.

#include "base/files.h"
#include "diagnostics/edit_checker.h"
#include "exec/child_process.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

extern char** environ;

namespace {

using namespace agent_run;
using SteadyClock = std::chrono::steady_clock;

/// A small project: its files, the file edited, and two versions of it with different errors.
struct Project {
  std::string checker;                       // what should answer (a server, or a linter)
  std::vector<std::string> shelf;            // for a linter: the only programs put on PATH
  std::map<std::string, std::string> files;
  std::string edited;
  std::string version_a;
  std::string version_b;
  std::string path_first;                    // a folder put first on PATH (TypeScript 7's tsc)
};

std::vector<Project> projects() {
  const std::string go_mod = "module example.com/m\n\ngo 1.19\n";
  const std::string go_a = "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tvar x int = \"a\"\n\tfmt.Println(x)\n}\n";
  const std::string go_b = "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(undefinedName)\n}\n";
  const std::string py_a = "x: int = \"hello\"\nprint(x)\n";
  const std::string py_b = "print(undefined_name)\n";
  const std::string ts_a = "const x: number = \"hello\";\nconsole.log(x);\n";
  const std::string ts_b = "console.log(undefinedName);\n";
  const std::string cpp_a = "#include <string>\nint main() {\n  int x = std::string(\"a\");\n  return x;\n}\n";
  const std::string cpp_b = "#include <string>\nint main() {\n  return undefined_name;\n}\n";
  const std::string sh_a = "#!/bin/sh\nif true; then\n  echo a\n";
  const std::string sh_b = "#!/bin/sh\nfor x in; do echo $x; done\n";
  const std::string rs_a = "fn main() {\n    let x: i32 = \"a\";\n    println!(\"{}\", x);\n}\n";
  const std::string rs_b = "fn main() {\n    println!(\"{}\", undefined_name);\n}\n";
  const std::string cargo = "[package]\nname = \"bench\"\nversion = \"0.1.0\"\nedition = \"2021\"\n";
  const std::string tsconfig = "{\"compilerOptions\": {\"strict\": true, \"target\": \"es2020\"}}\n";
  return {
      {"gopls", {}, {{"go.mod", go_mod}, {"main.go", go_a}}, "main.go", go_a, go_b},
      {"pyright-langserver", {}, {{"pyproject.toml", "[project]\nname = \"b\"\n"}, {"main.py", py_a}}, "main.py", py_a, py_b},
      {"typescript-language-server", {}, {{"tsconfig.json", tsconfig}, {"main.ts", ts_a}}, "main.ts", ts_a, ts_b},
      {"tsc --lsp", {}, {{"tsconfig.json", tsconfig}, {"main.ts", ts_a}}, "main.ts", ts_a, ts_b,
       std::string(AGENT_RUN_SOURCE_ROOT) + "/.tools/ts7/node_modules/.bin"},
      {"clangd", {}, {{"compile_flags.txt", "-std=c++17\n"}, {"main.cpp", cpp_a}}, "main.cpp", cpp_a, cpp_b},
      {"go build + go vet", {"go"}, {{"go.mod", go_mod}, {"main.go", go_a}}, "main.go", go_a, go_b},
      {"pyflakes", {"pyflakes3"}, {{"main.py", py_b}}, "main.py", py_b, "import os\nprint(undefined_two)\n"},
      {"tsc", {"tsc", "node"}, {{"main.ts", ts_a}}, "main.ts", ts_a, ts_b},
      {"shellcheck", {"shellcheck"}, {{"run.sh", sh_a}}, "run.sh", sh_a, sh_b},
      {"g++", {"g++"}, {{"main.cpp", cpp_a}}, "main.cpp", cpp_a, cpp_b},
      {"cargo check", {"cargo", "rustc"}, {{"Cargo.toml", cargo}, {"src/main.rs", rs_a}}, "src/main.rs", rs_a, rs_b},
  };
}

std::vector<std::string> environment_with_path(const std::string& path) {
  std::vector<std::string> environment;
  for (char** entry = environ; *entry; ++entry) {
    if (std::string(*entry).rfind("PATH=", 0) != 0) environment.emplace_back(*entry);
  }
  environment.push_back("PATH=" + path);
  return environment;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

double elapsed_ms(SteadyClock::time_point since) {
  return std::chrono::duration<double, std::milli>(SteadyClock::now() - since).count();
}

/// A fresh project folder with its files.
std::filesystem::path make_project(const Project& project) {
  auto folder = make_unique_folder(std::filesystem::temp_directory_path(), "agent-run-bench-");
  if (!folder) std::exit(2);
  std::filesystem::path root = std::filesystem::canonical(*folder);
  for (const auto& [name, content] : project.files) (void)write_file_atomically(root / name, content);
  return root;
}

/// PATH for a project: the npm tools and the machine's PATH for servers; a shelf of symlinks for a linter.
std::vector<std::string> project_environment(const Project& project, const std::filesystem::path& shelf,
                                             const std::vector<std::string>& machine) {
  if (!project.path_first.empty()) {
    return environment_with_path(project.path_first + ":" + environment_value(machine, "PATH").value_or(""));
  }
  if (project.shelf.empty()) return machine;
  std::filesystem::create_directories(shelf);
  for (const std::string& program : project.shelf) {
    auto found = find_program(program, machine);
    if (!found) return {};
    std::filesystem::create_symlink(std::filesystem::absolute(*found), shelf / program);
  }
  return environment_with_path(shelf.string());
}

/// One edit as edit_file makes it, checked; its duration, or a negative number when the checker was another.
double timed_edit(EditChecker& checker, const Project& project, const std::filesystem::path& root,
                  const std::vector<std::string>& environment, const std::string& before, const std::string& after) {
  (void)write_file_atomically(root / project.edited, after);
  auto started = SteadyClock::now();
  EditDiagnostics result = checker.check_edit(EditCheckRequest{root, root / project.edited, before, after, environment});
  double took = elapsed_ms(started);
  if (result.checker != project.checker || result.status != "problems") {
    std::fprintf(stderr, "  %s: answered by '%s' (%s; %s)\n", project.checker.c_str(), result.checker.c_str(),
                 result.status.c_str(), result.note.c_str());
    return -1;
  }
  return took;
}

/// Cold samples: a new checker (new server) per sample, until it has answered for the file.
std::vector<double> cold_samples(const Project& project, const std::vector<std::string>& machine, int runs) {
  std::vector<double> samples;
  for (int i = 0; i < runs; ++i) {
    std::filesystem::path root = make_project(project);
    auto environment = project_environment(project, root.string() + "-shelf", machine);
    EditChecker checker;
    auto started = SteadyClock::now();
    if (project.shelf.empty()) {
      auto warm = checker.warm_up(root / project.edited, root, environment, std::chrono::seconds(60), Silence::means_waiting);
      if (warm && *warm == project.checker) samples.push_back(elapsed_ms(started));
    } else {
      double took = timed_edit(checker, project, root, environment, project.version_a, project.version_b);
      if (took >= 0) samples.push_back(took);
    }
    checker.pool().shutdown_all();
    std::error_code ignored;
    std::filesystem::remove_all(root, ignored);
    std::filesystem::remove_all(root.string() + "-shelf", ignored);
  }
  return samples;
}

/// Warm samples: one checker kept for `edits` edits alternating between the project's two versions.
std::vector<double> warm_samples(const Project& project, const std::vector<std::string>& machine, int edits) {
  std::filesystem::path root = make_project(project);
  auto environment = project_environment(project, root.string() + "-shelf", machine);
  EditChecker checker;
  std::vector<double> samples;
  if (project.shelf.empty() &&
      !checker.warm_up(root / project.edited, root, environment, std::chrono::seconds(60), Silence::means_waiting)) {
    return samples;
  }
  std::string current = project.version_a;
  if (!project.shelf.empty()) timed_edit(checker, project, root, environment, current, project.version_a);  // first run
  for (int i = 0; i < edits; ++i) {
    std::string next = i % 2 == 0 ? project.version_b : project.version_a;
    double took = timed_edit(checker, project, root, environment, current, next);
    if (took >= 0) samples.push_back(took);
    current = next;
  }
  checker.pool().shutdown_all();
  std::error_code ignored;
  std::filesystem::remove_all(root, ignored);
  std::filesystem::remove_all(root.string() + "-shelf", ignored);
  return samples;
}

std::string summary(const std::vector<double>& samples, int wanted) {
  if (samples.empty()) return "n/a";
  char text[96];
  std::snprintf(text, sizeof text, "%.0f (%.0f-%.0f, n=%zu/%d)", median(samples),
                *std::min_element(samples.begin(), samples.end()), *std::max_element(samples.begin(), samples.end()),
                samples.size(), wanted);
  return text;
}

/// The machine's load average, since the benchmark shares two cores with whatever else runs.
std::string load_average() {
  auto text = read_file("/proc/loadavg");
  return text ? text->substr(0, text->find(' ', text->find(' ', text->find(' ') + 1) + 1)) : "unknown";
}

}  // namespace

int main(int argc, char** argv) {
  int cold_runs = argc > 1 ? std::atoi(argv[1]) : 3;
  int warm_edits = argc > 2 ? std::atoi(argv[2]) : 10;
  std::string tools = std::string(AGENT_RUN_SOURCE_ROOT) + "/.tools/node_modules/.bin";
  const char* path = std::getenv("PATH");
  std::vector<std::string> machine = environment_with_path(tools + ":" + (path ? path : "/usr/bin:/bin"));
  std::printf("load average before: %s\n", load_average().c_str());
  std::printf("%-28s %-7s %-30s %-30s\n", "checker", "kind", "cold ms: median (min-max, n)", "warm ms: median (min-max, n)");
  for (const Project& project : projects()) {
    std::string program = project.shelf.empty() ? project.checker : project.shelf.front();
    if (!project.path_first.empty()) program = project.path_first + "/tsc";
    if (!find_program(program, machine)) {
      std::printf("%-28s %-7s not installed\n", project.checker.c_str(), project.shelf.empty() ? "server" : "linter");
      continue;
    }
    std::vector<double> cold = cold_samples(project, machine, cold_runs);
    std::vector<double> warm = warm_samples(project, machine, warm_edits);
    std::printf("%-28s %-7s %-30s %-30s\n", project.checker.c_str(), project.shelf.empty() ? "server" : "linter",
                summary(cold, cold_runs).c_str(), summary(warm, warm_edits).c_str());
    std::fflush(stdout);
  }
  std::printf("load average after: %s\n", load_average().c_str());
  return 0;
}
