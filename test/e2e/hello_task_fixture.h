#pragma once

#include "support/fixtures.h"
#include "support/replay_server.h"

#include <string>
#include <vector>

namespace agent_run::test {

/// The policy of the end-to-end tests against a loopback model server: files may be edited and
/// written, nothing else.
inline constexpr const char* k_hello_policy = R"(version: 1
unmatched: deny
rules:
  - id: write-files
    allow: [edit_file, write_file]
)";

/// Their task, which the recorded three-turn sessions (`e2e_<provider>_<n>.sse`) complete: look at
/// greet.sh, create hello.sh that prints hello. `settings` (whole lines: `limits:`, `secrets:`)
/// come after the policy, before the check.
inline std::string hello_task(const std::string& settings) {
  return "description: Add a hello script\n"
         "prompt: Look at greet.sh, then create hello.sh that prints hello.\n"
         "policy: ../policy.yaml\n" +
         settings + "checks:\n  - run: \"sh hello.sh | grep -qx hello\"\n";
}

/// The `n`th turn (1 to 3) of that session from `provider` (`anthropic` or `openai`), as streamed.
inline std::string hello_turn_stream(const std::string& provider, int n) {
  return model_fixture("e2e_" + provider + "_" + std::to_string(n) + ".sse");
}

/// The start of a shell command that runs the built binary with none of the model APIs' variables
/// of the test's own environment, and `environment` (NAME=value words) instead.
inline std::string binary_with_model_environment(const std::vector<std::string>& environment) {
  std::string command = "env -u ANTHROPIC_API_KEY -u ANTHROPIC_BASE_URL -u OPENAI_API_KEY -u OPENAI_BASE_URL";
  for (const std::string& word : environment) command += " " + shell_quote(word);
  return command + " " + shell_quote(agent_run_binary());
}

}  // namespace agent_run::test
