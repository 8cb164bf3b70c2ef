#include "batch/project_gate.h"

#include "base/count_text.h"
#include "base/digest.h"
#include "base/duration.h"
#include "base/files.h"
#include "base/text.h"
#include "batch/attempt_environment.h"
#include "batch/baseline_cache.h"
#include "batch/no_new_diagnostics.h"
#include "diagnostics/problems.h"
#include "exec/child_environment.h"

#include <algorithm>
#include <map>

namespace agent_run {

namespace {

namespace fs = std::filesystem;

constexpr int k_key_format = 1;
constexpr std::size_t k_output_head_bytes = 16 * 1024 * 1024;  // pyright's JSON for a large project
constexpr std::size_t k_output_tail_bytes = 64 * 1024;
constexpr const char* k_gate = "no_new_diagnostics: project";

/// A tree to check: where agent-run writes it, and where the checker sees it (in a sandbox's /tmp).
struct TreePlace {
  fs::path written;
  fs::path seen;
};

/// What every checker run of one gate shares.
struct GateRun {
  const Task& task;
  const AttemptSettings& settings;
  ProcessTable& commands;
  const AttemptSandbox* sandbox;
  std::vector<std::string> environment;  // the checks' without the task's secrets, LC_ALL=C
};

/// Runs `argv` in the folder `in` inside the attempt's sandbox, through the table of setup and
/// checks; fails, naming `name`, when it cannot start, is killed or times out.
Expected<ProcessResult> run_in_attempt(const std::string& name, std::vector<std::string> argv, const TreePlace& in,
                                       std::vector<std::string> environment, const GateRun& run) {
  ProcessSpec spec;
  spec.argv = std::move(argv);
  spec.cwd = in.seen;
  spec.environment = std::move(environment);
  spec.timeout = run.task.limits.tool_timeout;
  spec.output_head_bytes = k_output_head_bytes;
  spec.output_tail_bytes = k_output_tail_bytes;
  spec.cancellation = run.settings.cancellation;
  ProcessSpec entering = in_attempt_sandbox(run.sandbox, std::move(spec));
  entering.cwd = in.written;  // the entry starts there, outside; the command runs in `in.seen`, inside
  auto result = run.commands.run(std::move(entering));
  if (!result) return make_error(name + " could not start: " + result.error().message);
  if (result->timed_out) {
    return make_error(name + " did not finish within " + format_duration(run.task.limits.tool_timeout) +
                      " (the task's tool_timeout)");
  }
  if (result->cancelled) return make_error(name + " was stopped: the run was interrupted");
  if (result->signal != 0) return make_error(name + " was killed by signal " + std::to_string(result->signal));
  if (result->output_bytes > k_output_head_bytes + k_output_tail_bytes) {
    return make_error(name + " printed more than " + std::to_string(k_output_head_bytes >> 20) + " MiB");
  }
  return result;
}

/// The first line `checker` prints for its version, asked once per run; "unknown" for a task's command.
Expected<std::string> checker_version(const ProjectChecker& checker, const GateRun& run) {
  if (checker.version_argv.empty()) return std::string("unknown");
  const std::string asked = join(checker.version_argv, " ");
  BaselineCache* cache = run.settings.baseline_cache;
  if (cache) {
    if (auto known = cache->known_version(asked)) return *known;
  }
  auto ran = run_in_attempt(checker.name + " --version", checker.version_argv, TreePlace{"/", "/"}, run.environment, run);
  if (!ran) return ran.error();
  if (ran->exit_code != 0) {
    return make_error("'" + asked + "' exited " + std::to_string(ran->exit_code) + ": " +
                      std::string(trim(ran->output)).substr(0, 300));
  }
  std::string version(trim(ran->output.substr(0, ran->output.find('\n'))));
  if (cache) cache->remember_version(asked, version);
  return version;
}

/// The compiler over each of `checker`'s compile_commands.json entries, their paths moved into
/// `tree`: the problems of every run, each once (a header's is reported by every file including it).
Expected<std::vector<Problem>> run_compiler(const ProjectChecker& checker, const TreePlace& tree, const GateRun& run) {
  std::vector<Problem> problems;
  for (const CompileEntry& entry : checker.compile_entries) {
    SyntaxCheck check = syntax_check_of(entry, TreeCopy{checker.compile_root, tree.written, tree.seen});
    auto ran = run_in_attempt(checker.name + " (" + entry.file.filename().string() + ")", std::move(check.argv),
                              TreePlace{check.written_directory, check.directory}, run.environment, run);
    if (!ran) return ran.error();
    auto found = read_project_problems(checker, ran->output, ran->exit_code, tree.seen);
    if (!found) return found.error();
    for (Problem& problem : *found) {
      bool known = std::any_of(problems.begin(), problems.end(), [&](const Problem& seen) {
        return seen.path == problem.path && seen.line == problem.line && seen.column == problem.column &&
               seen.message == problem.message;
      });
      if (!known) problems.push_back(std::move(problem));
    }
  }
  return problems;
}

/// `checker` over the tree at `tree`: its problems, paths relative to the tree.
Expected<std::vector<Problem>> run_checker(const ProjectChecker& checker, const TreePlace& tree, const GateRun& run) {
  if (!checker.compile_entries.empty()) return run_compiler(checker, tree, run);
  std::vector<std::string> argv = checker.argv;
  if (!checker.file_suffixes.empty()) {
    std::vector<std::string> files = project_files(tree.written, checker.file_suffixes);
    if (files.empty()) return std::vector<Problem>{};  // nothing of its kind in this tree
    argv.insert(argv.end(), files.begin(), files.end());
  }
  std::vector<std::string> environment = run.environment;
  if (!checker.target_dir_variable.empty()) {  // its build output, outside the tree
    fs::path target = run.sandbox ? fs::path("/tmp/agent-run-gate-target") : run.settings.scratch_folder / "gate-target";
    environment.push_back(checker.target_dir_variable + "=" + target.string());
  }
  auto ran = run_in_attempt(checker.name, std::move(argv), tree, std::move(environment), run);
  if (!ran) return ran.error();
  return read_project_problems(checker, ran->output, ran->exit_code, tree.seen);
}

/// A fresh folder holding the baseline tree: in the sandbox's private /tmp, or in the scratch area.
Expected<TreePlace> make_baseline_place(const Workspace& workspace, const GateRun& run) {
  const fs::path parent = run.sandbox                            ? run.sandbox->layout().private_tmp
                          : run.settings.scratch_folder.empty() ? fs::temp_directory_path()
                                                                : run.settings.scratch_folder;
  auto folder = make_unique_folder(parent, "agent-run-baseline-");
  if (!folder) return folder.error();
  TreePlace place{*folder, run.sandbox ? fs::path("/tmp") / folder->filename() : *folder};
  if (auto exported = workspace.export_baseline(place.written); !exported) {
    std::error_code ec;
    fs::remove_all(place.written, ec);
    return make_error("cannot write the baseline tree: " + exported.error().message);
  }
  return place;
}

/// The baseline problems of one checker: from the cache, else checked in `place` (made on first use).
Expected<std::vector<Problem>> baseline_of(const ProjectChecker& checker, const Workspace& workspace,
                                           const GateRun& run, std::optional<TreePlace>& place, int& runs,
                                           std::vector<std::string>& warnings) {
  auto version = checker_version(checker, run);
  if (!version) return version.error();
  const std::string key = baseline_cache_key(workspace.baseline_tree(), checker, *version, run.task, run.sandbox != nullptr);
  BaselineCache* cache = run.settings.baseline_cache;
  std::unique_lock<std::mutex> hold;
  if (cache) {
    hold = cache->hold(key);  // another attempt computing the same key finishes first
    if (auto found = cache->find(key)) return *found;
  }
  if (!place) {
    auto made = make_baseline_place(workspace, run);
    if (!made) return made.error();
    place = std::move(*made);
  }
  ++runs;
  auto problems = run_checker(checker, *place, run);
  if (problems && cache) {
    if (auto stored = cache->store(key, checker.name + " " + *version + " on tree " + workspace.baseline_tree(), *problems);
        !stored) {
      warnings.push_back(stored.error().message + "; later runs check this baseline again");
    }
  }
  return problems;
}

GateBaseline check_one_baseline(const Check& check, const Workspace& workspace, const GateRun& run) {
  GateBaseline baseline;
  if (workspace.baseline_tree().empty()) {
    baseline.failure = "no baseline tree was recorded after setup";
    return baseline;
  }
  auto checkers = choose_project_checkers(workspace.root(), run.environment, *check.project);
  if (!checkers) {
    baseline.failure = checkers.error().message;
    return baseline;
  }
  baseline.checkers = std::move(*checkers);
  std::optional<TreePlace> place;
  for (const ProjectChecker& checker : baseline.checkers) {
    auto problems = baseline_of(checker, workspace, run, place, baseline.checker_runs, baseline.warnings);
    if (!problems) {
      baseline.failure = "on the baseline tree, " + problems.error().message;
      break;
    }
    baseline.problems.insert(baseline.problems.end(), problems->begin(), problems->end());
  }
  std::error_code ec;
  if (place) fs::remove_all(place->written, ec);
  return baseline;
}

/// Whether `checker` reads the file at `relative` (tree-relative) and so would report its problems:
/// a file of its language, an entry of the compiler's database; never for a task's command, whose
/// reach nobody knows.
bool project_checker_reads(const ProjectChecker& checker, const std::string& relative) {
  static const std::map<std::string, std::vector<std::string>> k_suffixes = {
      {"go vet", {".go"}},
      {"pyright", {".py", ".pyi"}},
      {"ruff", {".py", ".pyi"}},
      {"tsc", {".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"}},
      {"eslint", {".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"}},
      {"cargo check", {".rs"}},
      {"shellcheck", {".sh", ".bash"}}};
  if (checker.name == "compiler") {
    return std::any_of(checker.compile_entries.begin(), checker.compile_entries.end(), [&](const CompileEntry& entry) {
      return entry.file.lexically_relative(checker.compile_root).lexically_normal() == fs::path(relative).lexically_normal();
    });
  }
  auto suffixes = k_suffixes.find(checker.name);
  if (suffixes == k_suffixes.end()) return false;
  return std::any_of(suffixes->second.begin(), suffixes->second.end(),
                     [&](const std::string& suffix) { return relative.ends_with(suffix); });
}

std::string checker_names(const GateBaseline& baseline) {
  std::vector<std::string> names;
  for (const ProjectChecker& checker : baseline.checkers) names.push_back(checker.name);
  return join(names, ", ");
}

}  // namespace

std::vector<std::string> gate_environment(const Task& task, const AttemptSettings& settings) {
  std::vector<std::string> environment;
  for (std::string& entry : child_environment({command_environment(task, settings), task.secrets,
                                               TaskSecrets::withheld, ChildPlace::runner, env_names(task)})) {
    if (!entry.starts_with("LC_ALL=")) environment.push_back(std::move(entry));
  }
  environment.push_back("LC_ALL=C");  // ASCII quotes from compilers, English from every tool
  return environment;
}

std::optional<UnrunnableGate> unrunnable_gate(const Task& task, const fs::path& root,
                                              const std::vector<std::string>& environment) {
  for (std::size_t i = 0; i < task.checks.size(); ++i) {
    if (!task.checks[i].project) continue;
    auto checkers = choose_project_checkers(root, environment, *task.checks[i].project);
    if (checkers) continue;
    const std::string name = "checks[" + std::to_string(i) + "]";
    auto origin = task.origins.find(name + ".checker");
    if (origin == task.origins.end()) origin = task.origins.find(name + ".no_new_diagnostics");
    return UnrunnableGate{origin != task.origins.end() ? origin->second : task.source.string(),
                          "'" + name + "' (" + k_gate + "): " + checkers.error().message};
  }
  return std::nullopt;
}

std::string baseline_cache_key(const std::string& tree, const ProjectChecker& checker, const std::string& version,
                               const Task& task, bool sandboxed) {
  std::string text = "agent-run project gate baseline " + std::to_string(k_key_format) + "\ntree " + tree +
                     "\nchecker " + checker.name + "\nargv";
  for (const std::string& word : checker.argv) text += " " + word;
  text += "\nversion " + version + "\nsandbox " + (sandboxed ? "on" : "off") + "\n";
  if (!checker.key_inputs.empty()) text += "inputs " + sha256_hex(checker.key_inputs) + "\n";  // compile_commands.json
  for (const auto& [name, variable] : task.env) {  // what pyright's python sees (PYTHONPATH); not a secret's value
    bool secret = std::find(task.secrets.begin(), task.secrets.end(), name) != task.secrets.end();
    text += "env " + name + "=" + (secret ? std::string("(secret)") : variable.value) + "\n";
  }
  return sha256_hex(text);
}

GateBaselines check_gate_baselines(const Task& task, const Workspace& workspace, const AttemptSettings& settings,
                                   ProcessTable& commands, const AttemptSandbox* sandbox) {
  GateBaselines baselines;
  GateRun run{task, settings, commands, sandbox, gate_environment(task, settings)};
  for (std::size_t i = 0; i < task.checks.size(); ++i) {
    if (task.checks[i].project) baselines[i] = check_one_baseline(task.checks[i], workspace, run);
  }
  return baselines;
}

CheckRecord judge_project_diagnostics(const GateBaseline& baseline, const fs::path& root, const Task& task,
                                      const AttemptSettings& settings, ProcessTable& commands,
                                      const AttemptSandbox* sandbox, std::optional<ProjectFindings>* findings) {
  const Clock::SteadyTime started = settings.clock->now();
  CheckRecord record;
  record.run = k_gate;
  GateRun run{task, settings, commands, sandbox, gate_environment(task, settings)};
  std::optional<std::string> failure = baseline.failure;
  std::vector<Problem> final_problems;
  for (std::size_t i = 0; !failure && i < baseline.checkers.size(); ++i) {
    auto problems = run_checker(baseline.checkers[i], TreePlace{root, root}, run);
    if (!problems) failure = "on the final tree, " + problems.error().message;
    if (problems) final_problems.insert(final_problems.end(), problems->begin(), problems->end());
  }
  record.duration_ms = elapsed_ms(started, settings.clock->now());
  if (failure) {
    record.output_tail = std::string(k_gate) + " cannot be judged: " + *failure + "\n";
    return record;
  }
  std::vector<Problem> introduced = problems_not_in(final_problems, baseline.problems);
  sort_problems(introduced);
  if (findings) {
    *findings = ProjectFindings{[checkers = baseline.checkers](const std::string& path) {
                                  return std::any_of(checkers.begin(), checkers.end(), [&](const ProjectChecker& checker) {
                                    return project_checker_reads(checker, path);
                                  });
                                },
                                introduced};
  }
  record.passed = introduced.empty();
  record.exit_code = record.passed ? 0 : 1;
  std::string counts = " (" + checker_names(baseline) + ": " + std::to_string(baseline.problems.size()) +
                       " before the agent" + (baseline.checker_runs == 0 ? ", from the cache" : "") + ", " +
                       std::to_string(final_problems.size()) + " after)";
  record.output_tail = record.passed ? "no new diagnostics in the project" + counts + "\n"
                                     : count_of(introduced.size(), "new diagnostic", "new diagnostics") +
                                           " in the project" + counts + ":\n" + problem_lines(introduced);
  return record;
}

}  // namespace agent_run
