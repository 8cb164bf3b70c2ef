#include "batch/attempt_session.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>

namespace agent_run {
namespace {

bool holds(const std::vector<std::string>& environment, const std::string& prefix) {
  return std::any_of(environment.begin(), environment.end(),
                     [&](const std::string& entry) { return entry.rfind(prefix, 0) == 0; });
}

}  // namespace

BOOST_AUTO_TEST_SUITE(attempt_session)

BOOST_AUTO_TEST_CASE(the_tools_environment_is_the_allow_list_and_the_task_s_env_without_its_secrets) {
  test::TempFolder workspace;
  Task task;
  task.secrets = {"DATABASE_URL"};
  task.env["TASK_SETTING"] = EnvVariable{"on"};
  Policy policy = builtin_policy();
  AttemptSettings settings;
  settings.environment = {"PATH=/usr/bin:/bin", "DATABASE_URL=postgres://app:hunter22@db/app",
                          "MIRROR_URL=https://u:pw123456@mirror.example/", "GITHUB_ENV=/home/runner/_temp/env",
                          "VISIBLE=yes"};
  ToolScope scope = make_tool_scope(task, policy, workspace.path(), settings, nullptr, nullptr);
  BOOST_TEST(holds(scope.environment, "PATH=/usr/bin:/bin"));
  BOOST_TEST(holds(scope.environment, "TASK_SETTING=on"));
  BOOST_TEST(!holds(scope.environment, "VISIBLE="));  // on no list: setup alone gets it
  BOOST_TEST(!holds(scope.environment, "DATABASE_URL="));
  BOOST_TEST(!holds(scope.environment, "MIRROR_URL="));
  BOOST_TEST(!holds(scope.environment, "GITHUB_ENV="));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
