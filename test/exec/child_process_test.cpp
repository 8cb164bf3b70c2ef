#include "exec/child_process.h"
#include "support/process_probes.h"

#include <boost/test/unit_test.hpp>

extern char** environ;

using namespace agent_run;
using namespace std::chrono_literals;

namespace {

ChildProcess spawn_shell(const std::string& script) {
  std::vector<std::string> environment;
  for (char** entry = environ; *entry; ++entry) environment.emplace_back(*entry);
  auto child = ChildProcess::spawn({"sh", "-c", script}, {}, environment);
  BOOST_REQUIRE(child.has_value());
  return std::move(*child);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(child_process)

BOOST_AUTO_TEST_CASE(the_exit_is_described_once_reaped) {
  ChildProcess exits = spawn_shell("exit 4");
  BOOST_TEST(exits.exit_description().empty());
  BOOST_REQUIRE(exits.wait_exit(60s));
  BOOST_TEST(exits.exit_description() == "exited with code 4");
  ChildProcess killed = spawn_shell("sleep 3600");
  killed.kill_and_reap();
  BOOST_TEST(killed.exit_description() == "was killed by signal 9 (Killed)");
}

BOOST_AUTO_TEST_CASE(killing_a_child_leaves_no_zombie_of_its_group_to_the_subreaper) {
  // The shell forks the sleeps; killed with the group, they become the test process's (a subreaper's) children.
  ChildProcess child = spawn_shell("sleep 3600 & sleep 3600 & wait");
  BOOST_REQUIRE(
      agent_run::test::eventually([&] { return agent_run::test::members_of_group(child.pid()).size() == 3; }));
  child.kill_and_reap();
  BOOST_TEST(agent_run::test::members_of_group(child.pid()).empty());
  BOOST_TEST(agent_run::test::zombie_children().empty());
}

BOOST_AUTO_TEST_CASE(a_child_that_exits_leaves_no_running_member_of_its_group) {
  ChildProcess child = spawn_shell("sleep 3600 & echo started; exec 1>&-; exit 0");
  BOOST_REQUIRE(child.wait_exit(60s));
  BOOST_TEST(child.exit_description() == "exited with code 0");
  BOOST_TEST(agent_run::test::members_of_group(child.pid()).empty());
  BOOST_TEST(agent_run::test::zombie_children().empty());
}

BOOST_AUTO_TEST_SUITE_END()
