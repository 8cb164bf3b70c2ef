#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace agent_run::test {

/// A temporary folder removed at the end of the test.
class TempFolder {
 public:
  TempFolder();
  /// Under `parent` instead of the temporary folder (made when missing).
  explicit TempFolder(const std::filesystem::path& parent);
  ~TempFolder();
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;

  const std::filesystem::path& path() const { return m_path; }
  /// Writes `content` to `relative` inside the folder, creating parents; returns the full path.
  std::filesystem::path write(const std::string& relative, const std::string& content) const;
  /// The content of `relative` inside the folder.
  std::string read(const std::string& relative) const;

 private:
  std::filesystem::path m_path;
};

/// What a command printed and how it exited.
struct CommandResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

/// Runs `sh -c command` in `cwd` and waits for it.
CommandResult run_shell(const std::string& command, const std::filesystem::path& cwd);

/// Makes `folder` a git repository holding `files` in one commit (real git, from PATH).
void make_git_repository(const std::filesystem::path& folder, const std::map<std::string, std::string>& files);

/// Runs the built agent-run binary with `arguments` in `cwd`.
CommandResult run_agent_run(const std::vector<std::string>& arguments, const std::filesystem::path& cwd);

/// Quotes `word` for sh.
std::string shell_quote(const std::string& word);

/// The project's source folder (for stock policies, examples and schemas).
std::filesystem::path source_root();

/// The project's npm tools (.tools: language servers, checkers, MCP servers), the link resolved:
/// what a sandbox is given must not name a path under /tmp that only leads elsewhere (a clone under
/// /tmp whose .tools links to a folder the sandbox sees).
std::filesystem::path tools_folder();

/// The agent-run binary this build made. (The build's paths live in fixtures.cpp alone, so that the
/// other test objects are the same in every checkout and ccache shares them between worktrees.)
std::string agent_run_binary();

/// The reference JUnit schema, reports/junit.xsd.
std::string junit_schema();

/// A folder beside the build, outside /tmp: what a sandbox sees read-only (its /tmp is private, so a
/// file under the machine's /tmp would be invisible inside, not protected). When the build itself is
/// under /tmp or /var/tmp (a clone there), a folder of this build's under $HOME/.cache instead.
std::filesystem::path visible_scratch();

/// Checks every report agent-run wrote in `folder`, each failure a test error naming the file:
/// report.json against reports/report.schema.json (python3-jsonschema), junit.xml against
/// reports/junit.xsd and ../shared/reference/junit-10.xsd (xmllint; the second when it is there),
/// report.html well-formed (xmllint reads it as XML), summary.md within GitHub's step summary limit.
void check_report_folder(const std::filesystem::path& folder);

}  // namespace agent_run::test
