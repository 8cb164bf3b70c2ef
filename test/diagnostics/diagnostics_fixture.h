#pragma once

#include "diagnostics/edit_checker.h"
#include "exec/child_process.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

extern char** environ;

namespace agent_run::test {

/// The folder ci/install-diagnostics-tools.sh installs the npm servers into.
inline std::filesystem::path npm_tools_bin() { return tools_folder() / "node_modules/.bin"; }

/// This process's environment with `path` as PATH.
inline std::vector<std::string> environment_with_path(const std::string& path) {
  std::vector<std::string> environment;
  for (char** entry = environ; *entry; ++entry) {
    if (std::string(*entry).rfind("PATH=", 0) != 0) environment.emplace_back(*entry);
  }
  environment.push_back("PATH=" + path);
  return environment;
}

/// The environment the runner's tests use: the project's npm tools first on PATH, then the machine's.
inline std::vector<std::string> tools_environment() {
  const char* path = ::getenv("PATH");
  return environment_with_path(npm_tools_bin().string() + ":" + (path ? path : "/usr/bin:/bin"));
}

/// Fails the test unless `program` is on the PATH of `environment` (the install script brings it).
inline void require_program(const std::string& program, const std::vector<std::string>& environment) {
  BOOST_REQUIRE_MESSAGE(find_program(program, environment).has_value(),
                        program + " is not installed: run ci/install-diagnostics-tools.sh");
}

/// The framing of a fake language server written in Python, for a script that has imported json and
/// sys: `read()`, the next message from stdin (the script exits at the end of its input), and
/// `send(message)`, one message to stdout.
inline constexpr const char* k_python_lsp_framing = R"(def read():
    length = 0
    while True:
        line = sys.stdin.buffer.readline()
        if not line:
            sys.exit(0)
        if line in (b"\r\n", b"\n"):
            break
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(sys.stdin.buffer.read(length))
def send(message):
    body = json.dumps(message).encode()
    sys.stdout.buffer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    sys.stdout.buffer.flush()
)";

/// A folder of symlinks to chosen programs, so a test controls exactly which checkers exist.
class ToolShelf {
 public:
  /// Links each program (found on the machine's PATH or in the npm tools) into the shelf.
  explicit ToolShelf(const std::vector<std::string>& programs) {
    std::vector<std::string> machine = tools_environment();
    for (const std::string& program : programs) {
      auto found = find_program(program, machine);
      BOOST_REQUIRE_MESSAGE(found.has_value(), program + " is not installed: run ci/install-diagnostics-tools.sh");
      std::filesystem::create_symlink(std::filesystem::absolute(*found), m_folder.path() / program);
    }
  }
  /// Adds `program` as a link to `target`.
  void add_link(const std::string& program, const std::filesystem::path& target) const {
    std::filesystem::create_symlink(target, m_folder.path() / program);
  }
  /// Adds an executable script named `program`.
  void add_script(const std::string& program, const std::string& script) const {
    m_folder.write(program, script);
    std::filesystem::permissions(m_folder.path() / program, std::filesystem::perms::owner_all);
  }
  /// An environment whose PATH is the shelf and the basic system folders the tools themselves need.
  std::vector<std::string> environment() const {
    return environment_with_path(m_folder.path().string() + ":/nonexistent-agent-run-path");
  }

 private:
  TempFolder m_folder;
};

/// Settings for tests that check *which* checker answered and what it said: a budget that a loaded
/// two-core machine cannot miss, so a slow server is waited for instead of giving way to the linter.
/// The two-second cap itself has its own tests (broken_servers_test.cpp).
inline DiagnosticsSettings generous_budget() {
  DiagnosticsSettings settings;
  settings.budget = std::chrono::seconds(120);
  // typescript-language-server and gopls push a partial list first (the syntax pass; after a change,
  // the new syntax pass merged with the old semantic one) and the full list later: 25-250 ms on an
  // idle machine, seconds on a loaded one. Which list is final is only known by waiting.
  settings.minimum_settle = std::chrono::seconds(2);
  return settings;
}

/// Edits (or creates) a file in a workspace and runs the diagnostics check the way the tools do.
struct EditRunner {
  EditChecker& checker;
  TempFolder& workspace;
  std::vector<std::string> environment;

  EditDiagnostics write(const std::string& relative, const std::string& content) const {
    std::filesystem::path file = std::filesystem::canonical(workspace.path()) / relative;
    std::optional<std::string> before;
    if (std::filesystem::exists(file)) before = workspace.read(relative);
    workspace.write(relative, content);
    return checker.check_edit(
        EditCheckRequest{std::filesystem::canonical(workspace.path()), file, before, content, environment});
  }
};

/// Milliseconds since `start`.
inline long long elapsed_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
}

/// Whether `problems` holds one at `path`:`line` whose message contains `text`.
inline bool has_problem(const std::vector<Problem>& problems, const std::string& path, int line,
                        const std::string& text, bool other_file = false) {
  for (const Problem& problem : problems) {
    if (problem.path == path && problem.line == line && problem.message.find(text) != std::string::npos &&
        problem.other_file == other_file) {
      return true;
    }
  }
  return false;
}

/// The problems as text, for failure messages.
inline std::string describe(const EditDiagnostics& diagnostics) {
  std::string text = diagnostics.checker + " " + diagnostics.status + " (" + diagnostics.note + ")";
  for (const Problem& problem : diagnostics.problems) {
    text += "\n  " + problem.path + ":" + std::to_string(problem.line) + ":" + std::to_string(problem.column) + ": " +
            problem.severity + ": " + problem.message + " [" + problem.code + "]" +
            (problem.other_file ? " (other)" : "");
  }
  return text;
}

}  // namespace agent_run::test
