#include "support/fixtures.h"
#include "workspace/git_repository.h"

#include <boost/test/unit_test.hpp>

namespace agent_run {
namespace {

std::string branches_of(const std::filesystem::path& folder) {
  return test::run_shell("git branch --list --format='%(refname:short)'", folder).output;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(git_repository)

BOOST_AUTO_TEST_CASE(delete_branch_removes_a_branch_and_refuses_the_one_checked_out) {
  test::TempFolder folder;
  test::make_git_repository(folder.path(), {{"a.txt", "a\n"}});
  auto repository = GitRepository::open(folder.path());
  BOOST_REQUIRE(repository.has_value());
  std::string head = *repository->head_commit();
  BOOST_REQUIRE(repository->create_branch("agent-run/one", head).has_value());
  BOOST_TEST(branches_of(folder.path()).find("agent-run/one") != std::string::npos);

  BOOST_REQUIRE(repository->delete_branch("agent-run/one").has_value());
  BOOST_TEST(branches_of(folder.path()).find("agent-run/one") == std::string::npos);
  BOOST_TEST(!repository->delete_branch("agent-run/one").has_value());  // gone

  std::string current = test::run_shell("git branch --show-current", folder.path()).output;
  current.erase(current.find_last_not_of('\n') + 1);
  auto refused = repository->delete_branch(current);
  BOOST_REQUIRE(!refused.has_value());
  BOOST_TEST(refused.error().message.find("checked out") != std::string::npos, refused.error().message);
  BOOST_TEST(branches_of(folder.path()).find(current) != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
