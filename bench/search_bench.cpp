// search_bench: times the grep tool's built-in search against ripgrep, and the glob tool against
// `rg --files`, on a big tree (default /usr/include). Run it through ci/bench-search.sh. Not part of ctest.

#include "search/grep_search.h"
#include "tools/tool_registry.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <thread>
#include <iostream>
#include <string>
#include <vector>

using namespace agent_run;

namespace {

using Seconds = std::chrono::duration<double>;

/// Runs a command with stdout on a pipe and reads all of it; returns the number of lines it printed.
std::size_t run_counting_lines(const std::vector<std::string>& args, const std::filesystem::path& cwd) {
  int ends[2];
  if (::pipe(ends) != 0) return 0;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, ends[1], 1);
  posix_spawn_file_actions_addclose(&actions, ends[0]);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
  std::vector<char*> argv;
  for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  pid_t pid = -1;
  char* envp[] = {nullptr};
  ::posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), envp);
  posix_spawn_file_actions_destroy(&actions);
  ::close(ends[1]);
  std::size_t lines = 0;
  char buffer[1 << 16];
  for (ssize_t n; (n = ::read(ends[0], buffer, sizeof buffer)) > 0;) lines += std::count(buffer, buffer + n, '\n');
  ::close(ends[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return lines;
}

/// The best of `runs` timings of `work` (after one warm-up run), and what the last run returned.
std::pair<double, std::size_t> best_of(int runs, const std::function<std::size_t()>& work) {
  std::size_t result = work();
  double best = 1e9;
  for (int i = 0; i < runs; ++i) {
    auto start = std::chrono::steady_clock::now();
    result = work();
    best = std::min(best, Seconds(std::chrono::steady_clock::now() - start).count());
  }
  return {best, result};
}

std::vector<std::string> ripgrep_walk_flags() {
  return {"rg", "--no-config", "--hidden", "--no-ignore-dot", "--no-ignore-exclude", "--no-ignore-global", "-g", "!.git"};
}

std::size_t builtin_grep(const std::filesystem::path& tree, const std::string& pattern, bool case_insensitive) {
  GrepRequest request;
  request.pattern = pattern;
  request.case_insensitive = case_insensitive;
  request.max_results = static_cast<std::size_t>(-1) / 2;
  auto patterns = prepare_patterns(pattern, case_insensitive);
  if (!patterns) {
    std::cerr << patterns.error().message << "\n";
    std::exit(2);
  }
  SearchScope scope{tree, std::chrono::steady_clock::now() + std::chrono::minutes(10), {}};
  std::size_t lines = 0;
  auto done = search_builtin(scope, request, *patterns, [&](GrepFile&& file) {
    lines += file.match_count;
    return WalkStep::go_on;
  });
  if (!done) std::cerr << done.error().message << "\n";
  return lines;
}

std::size_t ripgrep_grep(const std::filesystem::path& tree, const std::string& pattern, bool case_insensitive) {
  auto patterns = prepare_patterns(pattern, case_insensitive);
  std::vector<std::string> args = ripgrep_walk_flags();
  args.insert(args.end(), {"--text", "--encoding", "none", "--line-number", "--no-heading"});
  if (case_insensitive) args.push_back("--ignore-case");
  args.insert(args.end(), {"--regexp", patterns->for_ripgrep});
  return run_counting_lines(args, tree);
}

std::size_t glob_tool(const std::filesystem::path& tree, const std::string& pattern) {
  static ToolRegistry tools = make_tool_registry(std::nullopt);
  ToolContext context;
  context.workspace = tree;
  ToolOutput output = tools.find("glob")->run(Json::object().set("pattern", pattern).set("max_results", 1000000000), context);
  return static_cast<std::size_t>(std::count(output.content.begin(), output.content.end(), '\n'));
}

std::size_t ripgrep_files(const std::filesystem::path& tree, const std::string& glob) {
  std::vector<std::string> args = ripgrep_walk_flags();
  args.push_back("--files");
  if (!glob.empty()) args.insert(args.end(), {"-g", glob});
  return run_counting_lines(args, tree);
}

struct Row {
  std::string what;
  double ours = 0;
  double theirs = 0;
  std::size_t our_count = 0;
  std::size_t their_count = 0;
  double target = 0;
};

void print(const Row& row) {
  const double ratio = row.ours / row.theirs;
  std::printf("%-44s %8.3f s %8.3f s %6.2fx  (<= %.1fx %s)  %zu / %zu\n", row.what.c_str(), row.ours, row.theirs, ratio,
              row.target, ratio <= row.target ? "met" : "MISSED", row.our_count, row.their_count);
}

}  // namespace

int main(int argc, char** argv) {
  std::filesystem::path tree = argc > 1 ? argv[1] : "/usr/include";
  int runs = argc > 2 ? std::atoi(argv[2]) : 5;
  std::printf("tree: %s, best of %d runs after a warm-up, %u cores\n", tree.c_str(), runs, std::thread::hardware_concurrency());
  std::printf("%-44s %10s %10s %7s\n", "search", "ours", "ripgrep", "ratio");
  struct GrepCase { const char* what; const char* pattern; bool case_insensitive; };
  const GrepCase cases[] = {
      {"grep literal 'PTHREAD_MUTEX_INITIALIZER'", "PTHREAD_MUTEX_INITIALIZER", false},
      {"grep regex '\\w+_init\\('", "\\w+_init\\(", false},
      {"grep -i literal 'todo'", "todo", true},
      {"grep regex '[a-z]+[0-9]{3} [a-z]+'", "[a-z]+[0-9]{3} [a-z]+", false},
      {"grep alternation 'EINVAL|ENOMEM'", "EINVAL|ENOMEM", false},
  };
  bool all_met = true;
  for (const GrepCase& c : cases) {
    auto ours = best_of(runs, [&] { return builtin_grep(tree, c.pattern, c.case_insensitive); });
    auto theirs = best_of(runs, [&] { return ripgrep_grep(tree, c.pattern, c.case_insensitive); });
    Row row{c.what, ours.first, theirs.first, ours.second, theirs.second, 1.5};
    print(row);
    all_met = all_met && row.ours <= row.theirs * row.target;
  }
  struct GlobCase { const char* what; const char* pattern; const char* rg_glob; };
  const GlobCase globs[] = {{"glob '*.h' vs rg --files -g '*.h'", "*.h", "*.h"}, {"glob '**' vs rg --files", "**", ""}};
  for (const GlobCase& g : globs) {
    auto ours = best_of(runs, [&] { return glob_tool(tree, g.pattern); });
    auto theirs = best_of(runs, [&] { return ripgrep_files(tree, g.rg_glob); });
    Row row{g.what, ours.first, theirs.first, ours.second, theirs.second, 2.0};
    print(row);
    all_met = all_met && row.ours <= row.theirs * row.target;
  }
  std::printf("counts: matching lines (grep) or files (glob), ours / ripgrep's\n");
  return all_met ? 0 : 1;
}
