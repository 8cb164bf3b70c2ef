// libFuzzer target for the policy's best-effort part parser (what deny rules see of a sandboxed
// bash command): whatever the bytes, shell_parts must not crash nor loop, every part it returns must
// hold something to check, the wrapper views of every part (their scripts read the same way) must
// not crash, and wherever the strict parser understands the input, both must find the same
// commands. Built with clang (-fsanitize=fuzzer,address,undefined) by test/fuzz/CMakeLists.txt.
#include "policy/command_views.h"
#include "policy/path_pattern.h"
#include "policy/shell_parser.h"
#include "policy/shell_parts.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace {

using namespace agent_run;

/// Stops the run so libFuzzer saves the input: an invariant of the parser does not hold.
[[noreturn]] void invariant_broken() { __builtin_trap(); }

void check_part(const SimpleCommand& command) {
  if (command.argv.empty() && command.redirects.empty() && command.assignments.empty()) invariant_broken();
  CommandViews views = command_views(command, ScriptReading::parts);
  for (const std::vector<std::string>& argv : views.argvs) {
    if (argv.empty()) invariant_broken();
    for (const std::string& word : argv) (void)canonical_paths({}, word);
  }
  for (const ShellRedirect& redirect : views.redirects) (void)canonical_paths({}, redirect.target);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const ShellParts parts = shell_parts(text);
  if (parts.commands.size() > 2048) invariant_broken();
  for (const SimpleCommand& command : parts.commands) check_part(command);
  const ShellParse strict = parse_shell(text);
  if (!strict.understood()) return 0;
  if (!parts.complete || parts.commands.size() != strict.commands.size()) invariant_broken();
  for (std::size_t i = 0; i < strict.commands.size(); ++i) {
    if (parts.commands[i].argv != strict.commands[i].argv) invariant_broken();
    if (parts.commands[i].redirects != strict.commands[i].redirects) invariant_broken();
  }
  return 0;
}
