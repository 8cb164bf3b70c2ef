// search-cli: runs one of the grep tool's search backends, or the glob tool, over a tree as a whole
// process, printing every result without a cap, so that ci/benchmark.sh can time it and measure its
// memory against ripgrep run the same way, and compare its output with ripgrep's byte for byte.
//
//   search-cli grep builtin|ripgrep TREE PATTERN   prints `path:line:text` per matching line, as
//                                                   `rg -n --no-heading --sort path` prints it
//   search-cli glob TREE PATTERN                    prints the glob tool's list, one path a line
//
// Not part of ctest's default set beyond the benchmark's smoke test.

#include "search/grep_search.h"
#include "tools/builtin_tools.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

using namespace agent_run;

namespace {

/// Writes each file's lines as ripgrep's no-heading format does, through one big stdio buffer; the
/// line number is formatted by hand (printf's format parsing cost more than the search of some files).
WalkStep print_file(GrepFile&& file) {
  std::string text;
  char digits[24];
  for (const GrepLine& line : file.lines) {
    char* end = digits + sizeof digits;
    char* at = end;
    for (auto number = static_cast<unsigned long long>(line.number); at == end || number > 0; number /= 10)
      *--at = static_cast<char>('0' + number % 10);
    text.append(file.path).append(1, ':').append(at, end).append(1, ':').append(line.text).append(1, '\n');
  }
  std::fwrite(text.data(), 1, text.size(), stdout);
  return WalkStep::go_on;
}

int grep(const std::string& backend, const std::filesystem::path& tree, const std::string& pattern) {
  GrepRequest request;
  request.pattern = pattern;
  request.max_results = static_cast<std::size_t>(-1) / 2;
  auto patterns = prepare_patterns(pattern, false);
  if (!patterns) {
    std::cerr << "search-cli: " << patterns.error().message << "\n";
    return 2;
  }
  SearchScope scope{tree, std::chrono::steady_clock::now() + std::chrono::hours(1), {"PATH=/usr/bin:/bin"}};
  Expected<void> done = backend == "builtin"
                            ? search_builtin(scope, request, *patterns, print_file)
                            : search_with_ripgrep("/usr/bin/rg", scope, request, *patterns, print_file);
  if (!done) {
    std::cerr << "search-cli: " << done.error().message << "\n";
    return 2;
  }
  return 0;
}

int glob(const std::filesystem::path& tree, const std::string& pattern) {
  // The glob tool alone, not the registry: the registry pulls in every tool and the libraries they
  // need (Poco, OpenSSL), whose loading (symbol binding at start) was most of a small tree's figure.
  std::unique_ptr<Tool> tool = make_glob_tool();
  ToolScope scope;
  scope.workspace = tree;
  // Never destroyed: a session's end (its process table looks through /proc for escapes, hundreds of
  // processes on a shared machine) belongs to the end of an attempt, not to one glob call.
  static SessionState* const session = new SessionState;  // static: reachable, so LeakSanitizer does not call it a leak
  ToolOutput output = tool->run(Json::object().set("pattern", pattern).set("max_results", 1000000000), scope,
                                *session, std::chrono::minutes(10));
  std::fwrite(output.content.data(), 1, output.content.size(), stdout);
  return output.is_error ? 2 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  static char buffer[1 << 16];
  std::setvbuf(stdout, buffer, _IOFBF, sizeof buffer);
  if (argc == 5 && std::strcmp(argv[1], "grep") == 0 &&
      (std::strcmp(argv[2], "builtin") == 0 || std::strcmp(argv[2], "ripgrep") == 0)) {
    return grep(argv[2], argv[3], argv[4]);
  }
  if (argc == 4 && std::strcmp(argv[1], "glob") == 0) return glob(argv[2], argv[3]);
  std::cerr << "usage: search-cli grep builtin|ripgrep TREE PATTERN | search-cli glob TREE PATTERN\n";
  return 2;
}
