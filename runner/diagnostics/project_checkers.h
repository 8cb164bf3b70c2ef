#pragma once

#include "base/expected.h"
#include "diagnostics/compile_database.h"
#include "diagnostics/linters.h"
#include "report/edit_diagnostics.h"

#include <filesystem>
#include <string>
#include <vector>

namespace agent_run {

/// What a task's `no_new_diagnostics: project` check asks for: a checker by name, a command of its
/// own, or neither (chosen by what the project holds and what is installed).
struct ProjectCheckerChoice {
  std::string checker;  // one of project_checker_names(); empty: chosen
  std::string command;  // a shell command printing path:line:col: [severity:] message [code]; empty: none
};

/// The names a task's `checker:` may give, in the order they are chosen in.
const std::vector<std::string>& project_checker_names();

/// How a project checker prints its findings.
enum class ProjectFormat { pyright_json, linter };

/// One checker of a whole project: run in the tree's top folder (never given its path, so that the
/// same command checks the baseline and the final tree), and read into problems relative to it.
struct ProjectChecker {
  std::string name;                       // pyright, tsc, go vet, ..., or "command"
  std::vector<std::string> argv;          // argv[0] resolved to a full path
  std::vector<std::string> version_argv;  // prints its version; empty: none is known (a task's command)
  ProjectFormat format = ProjectFormat::linter;
  LinterFormat linter_format = LinterFormat::gcc;
  std::vector<int> finding_exits;          // exit codes that mean "ran and found problems"; any: {-1}
  std::vector<std::string> file_suffixes;  // the tree's files with these endings are appended (shellcheck)
  std::string target_dir_variable;         // set to a scratch folder outside the tree (CARGO_TARGET_DIR)
  std::vector<CompileEntry> compile_entries;  // the compiler: one syntax-only run per entry, instead of argv
  std::filesystem::path compile_root;         // the folder the entries' paths point into (the workspace)
  std::string key_inputs;  // what else its findings depend on (the entries, compile_root as <root>), for the cache key
};

/// The checkers for the project at `root` with `environment`'s PATH (the project's
/// node_modules/.bin first for tsc and eslint): the one `choice` names, else one per language the
/// project holds (go.mod: go vet; Cargo.toml: cargo check; tsconfig.json or jsconfig.json: tsc,
/// else an eslint.config.*: eslint; a compile_commands.json at the top or in build/: the compiler of
/// its entries; a .py file: pyright, else ruff; a .sh file, when nothing else: shellcheck). Fails, naming what is
/// missing, when a language has no installed checker or the project holds none of these.
Expected<std::vector<ProjectChecker>> choose_project_checkers(const std::filesystem::path& root,
                                                              const std::vector<std::string>& environment,
                                                              const ProjectCheckerChoice& choice);

/// The files of `tree` ending in one of `suffixes`, relative to it and sorted (hidden folders,
/// node_modules, target and vendor skipped).
std::vector<std::string> project_files(const std::filesystem::path& tree, const std::vector<std::string>& suffixes);

/// What `checker` found, from its output and exit code after it ran in `tree` (the folder as the
/// checker saw it): paths relative to `tree`. Fails when the exit code says it did not run to the
/// end (a crash, a bad configuration) or when it says there are problems but nothing could be read.
Expected<std::vector<Problem>> read_project_problems(const ProjectChecker& checker, const std::string& output,
                                                     int exit_code, const std::filesystem::path& tree);

}  // namespace agent_run
