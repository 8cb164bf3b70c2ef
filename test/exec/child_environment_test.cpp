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
  const std::vector<std::string> common = {"PATH=/usr/bin:/bin", "LANG=C.UTF-8",
                                           "PLAIN_URL=https://mirror.example/simple", "GITHUB_ACTIONS=true",
                                           "AGENT_RUN_SCRATCH=/tmp/agent-run/run-1"};
  auto with = [&](std::vector<std::string> more) {
    std::vector<std::string> all = common;
    all.insert(all.end(), more.begin(), more.end());
    return sorted(all);
  };
  // Setup: outside the sandbox, the task's secrets, the machine's HOME.
  BOOST_TEST(sorted(child_environment({base, secrets, TaskSecrets::passed, ChildPlace::runner})) ==
                 with({"HOME=" + home.path().string(), "DATABASE_URL=postgres://app:hunter22@db/app",
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
