// libFuzzer target for the policy loader: whatever the bytes, load_policy must not crash (its rules'
// examples are checked at load, so decide() runs on what the file holds), and a policy it refuses
// gets problems that each name the file (`FILE:LINE:COL: ...`). A policy it loads decides the file
// tools' calls on generated paths (fixed ones, `**`'s worst cases among them, and words of the input):
// every rule's path patterns meet paths inside the workspace, outside it and the workspace itself.
#include "fuzz_support.h"
#include "model/conversation.h"
#include "policy/policy.h"
#include "policy/policy_loader.h"

#include <string>
#include <vector>

using namespace agent_run;
using agent_run::fuzz::require;

namespace {

/// Paths for decide(): fixed ones, then up to 16 words of `text` (split at YAML's punctuation).
std::vector<std::string> generated_paths(std::string_view text) {
  std::vector<std::string> paths = {"a",  "src/x.py", ".",      "./",  "/",       "/etc/passwd", "../x",
                                    "..", ".env",     "a/b/c/d", "**", "//etc/x", "a/../../b",   "[x]/{a,b}"};
  std::string word;
  auto flush = [&] {
    if (!word.empty() && paths.size() < 30) paths.push_back(word);
    word.clear();
  };
  for (char c : text.substr(0, 4096)) {
    if (c == ' ' || c == '\n' || c == ',' || c == '[' || c == ']' || c == '"' || c == '\'' || c == ':') {
      flush();
    } else if (word.size() < 300) {
      word.push_back(c);
    }
  }
  flush();
  return paths;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto policy = load_policy(fuzz::as_text(data, size), "/fuzz/policy.yaml");
  if (!policy) {
    require(!policy.error().message.empty());
    require(fuzz::every_line_starts_with(policy.error().message, "/fuzz/policy.yaml:"));
    return 0;
  }
  for (const std::string& path : generated_paths(fuzz::as_text(data, size))) {
    for (const char* tool : {"read_file", "write_file", "edit_file", "glob", "grep"}) {
      // An empty optional or an index out of range aborts (the fuzz build has _GLIBCXX_ASSERTIONS).
      (void)decide(*policy, ToolCall{"id", tool, Json::object().set("path", path)}, DecisionContext{});
    }
  }
  return 0;
}
