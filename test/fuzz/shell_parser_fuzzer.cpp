// libFuzzer target for the policy's shell parser: whatever the bytes, parse_shell must not crash,
// must fail closed with a position inside the input, and what it accepts must read back the same
// when written out again; the wrapper views and path matching of every accepted command must not
// crash either. Built with clang (-fsanitize=fuzzer,address,undefined) by test/fuzz/CMakeLists.txt.
#include "policy/command_views.h"
#include "policy/path_pattern.h"
#include "policy/shell_parser.h"
#include "tools/protected_paths.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace agent_run;

/// Stops the run so libFuzzer saves the input: an invariant of the parser does not hold.
[[noreturn]] void invariant_broken() { __builtin_trap(); }

/// The accepted commands written out again with every word quoted, joined by `;`.
std::string written_again(const ShellParse& parse) {
  std::string line;
  for (const SimpleCommand& command : parse.commands) {
    if (!line.empty()) line += " ; ";
    for (const std::string& word : command.argv) line += quote_shell_word(word) + " ";
    for (const ShellRedirect& redirect : command.redirects) {
      std::string target = redirect.op == ">&" ? redirect.target : quote_shell_word(redirect.target);
      line += std::to_string(redirect.fd) + redirect.op + target + " ";
    }
  }
  return line;
}

bool same_commands(const ShellParse& a, const ShellParse& b) {
  if (a.commands.size() != b.commands.size()) return false;
  for (std::size_t i = 0; i < a.commands.size(); ++i) {
    if (a.commands[i].argv != b.commands[i].argv || a.commands[i].redirects != b.commands[i].redirects) return false;
  }
  return true;
}

/// The pattern kinds a policy uses, matched against every word as a path in a virtual workspace.
const std::vector<PathPattern>& patterns() {
  static const std::vector<PathPattern> k_patterns = [] {
    std::vector<PathPattern> compiled;
    for (const char* text : {".env", "*.pem", "src/**", "**/secrets/**", "//etc/**", "a/[!b-d]?*/**/c"}) {
      compiled.push_back(*compile_path_pattern(text));
    }
    return compiled;
  }();
  return k_patterns;
}

void check_views(const SimpleCommand& command) {
  CommandViews views = command_views(command);
  if (!views.problem.empty()) return;
  if (views.argvs.empty() || views.argvs.front() != command.argv) invariant_broken();
  for (const std::vector<std::string>& argv : views.argvs) {
    if (argv.empty()) invariant_broken();
    for (const std::string& word : argv) {
      for (const CanonicalPath& path : canonical_paths({}, word)) {
        for (const PathPattern& pattern : patterns()) (void)path_pattern_matches(pattern, path);
        (void)write_protection(path.absolute, "/workspace", {});
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const ShellParse parse = parse_shell(text);
  if (!parse.understood()) {
    if (!parse.commands.empty() || parse.problem_at > size) invariant_broken();
    return 0;
  }
  if (parse.commands.empty()) invariant_broken();
  for (const SimpleCommand& command : parse.commands) {
    if (command.argv.empty()) invariant_broken();
    check_views(command);
  }
  const ShellParse again = parse_shell(written_again(parse), 1 << 20);
  if (!again.understood() || !same_commands(parse, again)) invariant_broken();
  return 0;
}
