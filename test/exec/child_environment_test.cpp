#include "exec/child_environment.h"
#include "base/environment_names.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <filesystem>

namespace agent_run {
namespace {

/// agent-run's environment after app/'s first scrub (names only): what every child is built from.
std::vector<std::string> base_environment(const std::string& home) {
  return {"PATH=/usr/bin:/bin",
          "HOME=" + home,
          "LANG=C.UTF-8",
          "DATABASE_URL=postgres://app:hunter22@db/app",
          "MIRROR_URL=https://user:pw123456@mirror.example/simple",
          "PLAIN_URL=https://mirror.example/simple",
          "SSH_AUTH_SOCK=/run/user/0/agent.sock",
          "DOCKER_HOST=unix:///var/run/docker.sock",
          "KUBECONFIG=/root/.kube/config",
          "GITHUB_ENV=/home/runner/work/_temp/env",
          "GITHUB_OUTPUT=/home/runner/work/_temp/out",
          "GITHUB_ACTIONS=true",
          "XDG_CONFIG_HOME=" + home + "/.config",
          "TMPDIR=/var/tmp/x",
          "https_proxy=http://proxy:3128",
          "AGENT_RUN_SCRATCH=/tmp/agent-run/run-1"};
}

std::vector<std::string> sorted(std::vector<std::string> entries) {
  std::sort(entries.begin(), entries.end());
  return entries;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(child_environment_builder)

BOOST_AUTO_TEST_CASE(a_name_that_looks_secret_is_never_passed_on_whatever_its_case) {
  // If this list stopped being scrubbed, every child would see agent-run's keys.
  for (const char* name : {"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GITHUB_TOKEN", "gh_token", "AWS_SECRET_ACCESS_KEY",
                           "DB_PASSWORD", "PGPASSWD", "GOOGLE_APPLICATION_CREDENTIALS", "NPM_AUTH", "SESSION_COOKIE",
                           "XAUTHORITY", "SIGNING_PRIVATE", "SENTRY_DSN", "ACTIONS_ID_TOKEN_REQUEST_TOKEN"}) {
    BOOST_TEST(looks_secret(name), name);
    auto environment =
        child_environment({{std::string(name) + "=x", "PATH=/bin"}, {}, TaskSecrets::passed, ChildPlace::runner});
    BOOST_TEST((environment == std::vector<std::string>{"PATH=/bin"}), name);
  }
  for (const char* name : {"PATH", "HOME", "LANG", "CI", "GITHUB_ACTIONS", "DATABASE_URL", "PYTHONPATH"}) {
    BOOST_TEST(!looks_secret(name), name);
  }
  BOOST_TEST(looks_secret("MIRROR", "https://user:pw@mirror.example/x"));
  BOOST_TEST(looks_secret("X", "git+ssh://git:s3cret@host/repo and more"));
  BOOST_TEST(!looks_secret("X", "https://user@mirror.example/x"));  // a user name alone is no secret
  BOOST_TEST(!looks_secret("X", "https://mirror.example/a:b@c"));   // '@' in the path, not the host
}

BOOST_AUTO_TEST_CASE(each_caller_gets_its_environment) {
  test::TempFolder home;
  std::filesystem::create_directories(home.path() / ".pyenv");
  const std::vector<std::string> base = base_environment(home.path().string());
  const std::vector<std::string> secrets = {"DATABASE_URL"};
  // What the allow list keeps of base_environment (PLAIN_URL is on no list: setup alone gets it).
  const std::vector<std::string> common = {"PATH=/usr/bin:/bin", "LANG=C.UTF-8", "GITHUB_ACTIONS=true",
                                           "AGENT_RUN_SCRATCH=/tmp/agent-run/run-1"};
  auto with = [&](std::vector<std::string> more) {
    std::vector<std::string> all = common;
    all.insert(all.end(), more.begin(), more.end());
    return sorted(all);
  };
  // Setup: outside the sandbox, no allow list, the task's secrets, the machine's HOME.
  BOOST_TEST(sorted(child_environment({base, secrets, TaskSecrets::passed, ChildPlace::runner})) ==
                 with({"HOME=" + home.path().string(), "DATABASE_URL=postgres://app:hunter22@db/app",
                       "PLAIN_URL=https://mirror.example/simple",
                       "XDG_CONFIG_HOME=" + home.path().string() + "/.config", "TMPDIR=/var/tmp/x",
                       "https_proxy=http://proxy:3128"}),
             boost::test_tools::per_element());
  // Checks: inside their sandbox, with the task's secrets.
  BOOST_TEST(sorted(child_environment({base, secrets, TaskSecrets::passed, ChildPlace::sandbox})) ==
                 with({"HOME=/tmp/home", "TMPDIR=/tmp", "DATABASE_URL=postgres://app:hunter22@db/app",
                       "PYENV_ROOT=" + (home.path() / ".pyenv").string()}),
             boost::test_tools::per_element());
  // The agent's bash and background processes, language servers and linters: no task secret.
  BOOST_TEST(sorted(child_environment({base, secrets, TaskSecrets::withheld, ChildPlace::sandbox})) ==
                 with({"HOME=/tmp/home", "TMPDIR=/tmp", "PYENV_ROOT=" + (home.path() / ".pyenv").string()}),
             boost::test_tools::per_element());
  // web_search (and whatever else runs beside agent-run for the agent): no task secret, the machine's HOME.
  BOOST_TEST(sorted(child_environment({base, secrets, TaskSecrets::withheld, ChildPlace::runner})) ==
                 with({"HOME=" + home.path().string(), "XDG_CONFIG_HOME=" + home.path().string() + "/.config",
                       "TMPDIR=/var/tmp/x", "https_proxy=http://proxy:3128"}),
             boost::test_tools::per_element());
}

// Issue 27 case 6: secret-looking variables by other names, and everything else no command needs,
// are not on the allow list of the agent's commands (in the sandbox or beside agent-run) and of the
// checks in the sandbox; the task's env: and, for the checks, its secrets are.
BOOST_AUTO_TEST_CASE(the_agent_s_commands_and_the_sandboxed_checks_get_only_the_allow_list_and_the_task_s_names) {
  const std::vector<std::string> dropped = {"GH_PAT=c1",          "MYSQL_PWD=c2",        "SSHPASS=c3",
                                            "CI_JOB_JWT=c4",      "SLACK_WEBHOOK_URL=c5", "GITHUB_TOKEN=c6",
                                            "GITHUB_PAT=c7",      "RUNNER_TEMP=/t",      "EDITOR=vim",
                                            "ACTIONS_RUNTIME_TOKEN=c8", "NODE_OPTIONS=--require /x.js", "OLDPWD=/x"};
  const std::vector<std::string> kept = {"PATH=/bin",          "LANG=C.UTF-8",     "LANGUAGE=en",  "LC_CTYPE=C.UTF-8",
                                         "TERM=xterm",         "TZ=UTC",           "USER=u",       "LOGNAME=u",
                                         "SHELL=/bin/bash",    "PWD=/w",           "COLUMNS=80",   "LINES=24",
                                         "CI=true",            "GITHUB_REPOSITORY=o/r", "RUNNER_OS=Linux",
                                         "RUNNER_ARCH=X64",    "GOFLAGS=-mod=mod", "PYTHONPATH=/p", "JAVA_HOME=/j",
                                         "TASK_SETTING=on",    "DATABASE_URL=postgres://app:hunter22@db/app"};
  std::vector<std::string> base = dropped;
  base.insert(base.end(), kept.begin(), kept.end());
  for (const std::string& entry : {std::string("GH_PAT"), std::string("MYSQL_PWD"), std::string("SSHPASS"),
                                   std::string("CI_JOB_JWT"), std::string("SLACK_WEBHOOK_URL")}) {
    BOOST_TEST(looks_secret(entry), entry);
  }
  BOOST_TEST(!looks_secret("PWD"));
  BOOST_TEST(!looks_secret("PATH"));
  const std::vector<std::string> secrets = {"DATABASE_URL"};
  const std::vector<std::string> env = {"TASK_SETTING"};
  auto checks = child_environment({base, secrets, TaskSecrets::passed, ChildPlace::sandbox, env});
  std::erase_if(checks, [](const std::string& entry) { return entry.starts_with("HOME=") || entry.starts_with("TMPDIR="); });
  BOOST_TEST(sorted(checks) == sorted(kept), boost::test_tools::per_element());
  std::vector<std::string> agent_kept = kept;
  agent_kept.pop_back();  // the task's secret
  for (ChildPlace place : {ChildPlace::sandbox, ChildPlace::runner}) {
    auto agent = child_environment({base, secrets, TaskSecrets::withheld, place, env});
    std::erase_if(agent, [](const std::string& entry) { return entry.starts_with("HOME=") || entry.starts_with("TMPDIR="); });
    BOOST_TEST(sorted(agent) == sorted(agent_kept), boost::test_tools::per_element());
  }
  // Without its name under env:, the task's variable is dropped too; setup (outside) keeps what is not secret.
  auto unnamed = child_environment({base, secrets, TaskSecrets::withheld, ChildPlace::sandbox});
  BOOST_TEST(std::count(unnamed.begin(), unnamed.end(), "TASK_SETTING=on") == 0);
  auto setup = child_environment({base, secrets, TaskSecrets::passed, ChildPlace::runner, env});
  BOOST_TEST(std::count(setup.begin(), setup.end(), "EDITOR=vim") == 1);
  BOOST_TEST(std::count(setup.begin(), setup.end(), "GH_PAT=c1") == 0);
}

BOOST_AUTO_TEST_CASE(a_tool_root_already_set_is_kept_and_the_builder_can_run_twice) {
  std::vector<std::string> base = {"HOME=/nonexistent", "PYENV_ROOT=/opt/pyenv", "PATH=/bin"};
  auto inside = child_environment({base, {}, TaskSecrets::withheld, ChildPlace::sandbox});
  BOOST_TEST(sorted(inside) == sorted({"PYENV_ROOT=/opt/pyenv", "PATH=/bin", "HOME=/tmp/home", "TMPDIR=/tmp"}),
             boost::test_tools::per_element());
  BOOST_TEST(sorted(child_environment({inside, {}, TaskSecrets::withheld, ChildPlace::sandbox})) == sorted(inside),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(the_values_to_redact_are_those_of_the_task_s_secrets) {
  std::vector<std::string> environment = {"DATABASE_URL=postgres://app:hunter22@db/app", "EMPTY=", "PATH=/bin"};
  BOOST_TEST(values_of(environment, {"DATABASE_URL", "EMPTY", "MISSING"}) ==
             std::vector<std::string>{"postgres://app:hunter22@db/app"});
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
