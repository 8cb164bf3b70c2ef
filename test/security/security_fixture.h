#pragma once

#include "base/json.h"
#include "support/sandbox_support.h"

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace agent_run::test {

// The security suite's scene: canaries that an attack must not read, change or reach, and the two
// harnesses that attack through agent-run itself ([T] `agent-run tool --json`, [S] scripted runs).
// Every canary string carries a random suffix per test process (`CANARY-<kind>-<16 hex>`), so
// finding one anywhere it should not be is proof of a leak.

/// A canary string: `CANARY-<kind>-<16 hex digits>`, the same suffix for the whole test process.
std::string canary(std::string_view kind);

/// A listening socket that counts the connections made to it, without a thread and without waiting:
/// a client's connect() completes into the kernel's backlog, so once the client has returned,
/// connections() sees it.
class CountingListener {
 public:
  enum class Kind { tcp4, tcp6, unix_path, unix_abstract };

  /// tcp4/tcp6: a free port on 127.0.0.1 / ::1; unix_path: a socket at `where`; unix_abstract: the
  /// abstract name `where` (without the leading NUL).
  explicit CountingListener(Kind kind, const std::string& where = {});
  ~CountingListener();
  CountingListener(const CountingListener&) = delete;
  CountingListener& operator=(const CountingListener&) = delete;

  int port() const { return m_port; }
  /// Connections made so far (accepts those waiting, then counts).
  int connections();
  /// A python3 one-liner that connects to it and prints `connected` (for commands).
  std::string connect_command() const;

 private:
  Kind m_kind;
  std::string m_where;
  int m_socket = -1;
  int m_port = 0;
  int m_count = 0;
};

/// The canaries' texts, each the whole secret (a test asserts none of them appears).
struct Canaries {
  std::string env_file;      // the workspace's .env (untracked): API_KEY=...; also notes/alias.txt, a hard link to it
  std::string pem;           // certs/server.pem (untracked)
  std::string aws;           // .aws/credentials (untracked)
  std::string committed;     // deploy/.env.committed: committed, then deleted (readable through git's history)
  std::string setup_secret;  // what a task's setup writes into config/.env.production
  std::string api_key;       // ANTHROPIC_API_KEY in agent-run's own environment
  std::string database;      // DATABASE_URL's password: a task's `secrets:` entry
  std::string cookie;        // SESSION_COOKIE in agent-run's environment
  std::string mirror;        // the password in MIRROR_URL=https://user:PASSWORD@mirror.example/
  std::string ssh_key;       // HOME/.ssh/id_rsa of agent-run's HOME
  std::string git_token;     // http.https://github.com/.extraheader in the repository's .git/config
  std::string outside;       // outside/outside.txt, beside the workspace
  std::string tmp_outside;   // /tmp/agent-run-canary-*/outside.txt

  /// Every secret above with what it is, for leak scans.
  std::vector<std::pair<std::string, std::string>> secrets() const;
};

/// What must not change: every file (not folder) under a set of roots, by content or link target.
using TreeDigest = std::map<std::string, std::string>;

/// One call's answer from `agent-run tool --json`.
struct ToolAnswer {
  std::string tool;
  std::string verdict;     // "allowed" | "denied"
  std::string decided_by;  // rule, approval_class, unmatched, protected_path, not_understood, ...
  std::string rule_id;
  std::string reason;
  std::string content;  // what the model would read
  bool is_error = false;
  Json line;  // the whole line
};

/// How `agent-run tool` went.
struct ToolRun {
  int exit_code = -1;
  std::vector<ToolAnswer> answers;  // one per call that ran
  std::string stdout_text;
  std::string stderr_text;
};

/// How a scripted `agent-run run` went, with what it wrote.
struct TaskRun {
  int exit_code = -1;
  std::string output;  // stdout and stderr
  Json report;         // report.json (null when it was not written)
  Json attempt;        // its first attempt (null when none)
  std::string patch;   // the first attempt's patch.diff
  std::string transcript;
  std::string junit;
  std::filesystem::path out;  // the report folder
};

/// The scene. Everything lives under a fresh folder beside the build (never under /tmp, which the
/// sandbox replaces with a private one: a canary there would be invisible, not protected), but for
/// the one canary that must be invisible, under /tmp.
///
///   root/outside/outside.txt, root/outside/victim/{a,b}   files beside the workspace
///   root/home/.ssh/id_rsa, .gitconfig, .docker/run/docker.sock (a live listener)   agent-run's HOME
///   root/repo/   a git repository (two commits): src/app.py, tests/ (they pass), Makefile
///                (`make test`), .github/workflows/ci.yml, README.md; deploy/.env.committed only in
///                the first commit; untracked: .env, certs/server.pem, .aws/credentials,
///                notes/alias.txt (a hard link to .env), .envrc.sample (no secret)
///   root/policies/   copies of the stock policies (default, read-only, permissive)
class SecurityFixture {
 public:
  SecurityFixture();
  ~SecurityFixture();
  SecurityFixture(const SecurityFixture&) = delete;
  SecurityFixture& operator=(const SecurityFixture&) = delete;

  const Canaries& canaries() const { return m_canaries; }
  const std::filesystem::path& root() const { return m_root; }
  const std::filesystem::path& repository() const { return m_repository; }
  const std::filesystem::path& outside() const { return m_outside; }
  const std::filesystem::path& tmp_outside() const { return m_tmp_outside; }
  const std::filesystem::path& home() const { return m_home; }
  /// The copy of policies/NAME.yaml ("default", "read-only", "permissive").
  std::filesystem::path policy(std::string_view name) const;

  CountingListener& listener() { return *m_tcp; }              // 127.0.0.1
  CountingListener& listener6() { return *m_tcp6; }            // ::1
  CountingListener& docker_socket() { return *m_docker; }      // HOME/.docker/run/docker.sock
  CountingListener& abstract_socket() { return *m_abstract; }  // \0agent-run-canary-*
  const std::string& abstract_name() const { return m_abstract_name; }

  /// agent-run's environment: this process's PATH and locale, HOME, the fake keys and secrets, and
  /// what add_environment added.
  std::vector<std::string> environment() const;
  /// Puts KEY=VALUE in agent-run's environment for the runs from now on.
  void add_environment(std::string entry) { m_added_environment.push_back(std::move(entry)); }

  /// Digests of outside/, the /tmp canary, home/, policies/ and the repository's .git (its index
  /// left out: `git status` may refresh it).
  TreeDigest snapshot() const;
  /// BOOST_TEST for every file of `before` that changed or vanished and every file that appeared.
  void check_unchanged(const TreeDigest& before, std::string_view after_what) const;
  /// BOOST_TEST that no canary secret appears in `text`, naming `where`.
  void check_no_secret(std::string_view text, std::string_view where) const;
  /// check_no_secret over every regular file under `folder`.
  void check_no_secret_in_tree(const std::filesystem::path& folder, std::string_view where) const;

  /// Runs `agent-run tool --json --workspace WORKSPACE ARGS...` with `calls` (`{"tool":..., "input":...}`
  /// each) on its stdin and the fixture's environment.
  ToolRun run_tool(const std::filesystem::path& workspace, const std::vector<std::string>& arguments,
                   const std::vector<Json>& calls) const;
  /// Writes `task_yaml` to root/tasks/ID.yaml and runs `agent-run run` on it with ARGS, the report
  /// folder root/out-ID, and the fixture's environment.
  TaskRun run_task(const std::string& id, const std::string& task_yaml,
                   const std::vector<std::string>& arguments) const;

  /// The workspace files as a task's `workspace:` key names them (repo: the repository, with
  /// `isolation`: worktree, copy or in-place).
  std::string workspace_key(std::string_view isolation) const;

 private:
  void make_repository();
  void make_home();

  Canaries m_canaries;
  std::filesystem::path m_root;
  std::filesystem::path m_repository;
  std::filesystem::path m_outside;
  std::filesystem::path m_tmp_outside;
  std::filesystem::path m_home;
  std::string m_abstract_name;
  std::vector<std::string> m_added_environment;
  std::unique_ptr<CountingListener> m_tcp;
  std::unique_ptr<CountingListener> m_tcp6;
  std::unique_ptr<CountingListener> m_docker;
  std::unique_ptr<CountingListener> m_abstract;
};

/// A bash tool call as a line for run_tool: `{"tool": "bash", "input": {"command": COMMAND}}`.
Json bash_call(const std::string& command);
/// Any tool call as a line for run_tool.
Json tool_call(const std::string& tool, Json input);

}  // namespace agent_run::test
