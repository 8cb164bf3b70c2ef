#include "security/security_fixture.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>

namespace agent_run {
namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

// The scene's own positive controls: each canary is there and readable outside any sandbox, and
// each detector notices what it is meant to notice. Without them a "nothing leaked" could mean
// "nothing was there to leak".
BOOST_AUTO_TEST_SUITE(sandbox_scene)

BOOST_AUTO_TEST_CASE(every_canary_is_in_place_and_readable_outside_the_sandbox) {
  test::SecurityFixture scene;
  const test::Canaries& canaries = scene.canaries();
  BOOST_TEST(read_text(scene.repository() / ".env").find(canaries.env_file) != std::string::npos);
  BOOST_TEST(read_text(scene.repository() / "notes" / "alias.txt").find(canaries.env_file) != std::string::npos);
  BOOST_TEST(fs::hard_link_count(scene.repository() / ".env") == 2u);
  BOOST_TEST(read_text(scene.repository() / "certs" / "server.pem").find(canaries.pem) != std::string::npos);
  BOOST_TEST(read_text(scene.outside() / "outside.txt").find(canaries.outside) != std::string::npos);
  BOOST_TEST(read_text(scene.tmp_outside() / "outside.txt").find(canaries.tmp_outside) != std::string::npos);
  BOOST_TEST(read_text(scene.home() / ".ssh" / "id_rsa").find(canaries.ssh_key) != std::string::npos);
  BOOST_TEST(scene.root().string().rfind(fs::temp_directory_path().string(), 0) != 0);  // not under /tmp
  test::CommandResult history = test::run_shell("git log -p --all -- deploy/.env.committed", scene.repository());
  BOOST_TEST(history.output.find(canaries.committed) != std::string::npos);
  test::CommandResult token =
      test::run_shell("git config --get http.https://github.com/.extraheader", scene.repository());
  BOOST_TEST(token.output.find(canaries.git_token) != std::string::npos);
  test::CommandResult tests = test::run_shell("python3 -m unittest -q 2>&1 && make -s test 2>&1", scene.repository());
  BOOST_TEST(tests.exit_code == 0, tests.output);
}

BOOST_AUTO_TEST_CASE(each_listener_counts_a_connection_made_to_it) {
  test::SecurityFixture scene;
  for (test::CountingListener* listener :
       {&scene.listener(), &scene.listener6(), &scene.docker_socket(), &scene.abstract_socket()}) {
    BOOST_TEST(listener->connections() == 0);
    test::CommandResult connected = test::run_shell(listener->connect_command(), scene.root());
    BOOST_TEST(connected.output == "connected\n");
    BOOST_TEST(listener->connections() == 1);
  }
}

BOOST_AUTO_TEST_CASE(the_snapshot_notices_a_changed_a_new_and_a_removed_file) {
  test::SecurityFixture scene;
  test::TreeDigest before = scene.snapshot();
  BOOST_TEST(before.count("outside/outside.txt") == 1u);
  BOOST_TEST(before.count("repo/.git/config") == 1u);
  BOOST_TEST(before.count("home/.ssh/id_rsa") == 1u);
  std::ofstream(scene.outside() / "outside.txt", std::ios::app) << "x";
  std::ofstream(scene.home() / "new") << "x";
  fs::remove(scene.outside() / "victim" / "a");
  test::TreeDigest after = scene.snapshot();
  BOOST_TEST(after.at("outside/outside.txt") != before.at("outside/outside.txt"));
  BOOST_TEST(after.count("home/new") == 1u);
  BOOST_TEST(after.count("outside/victim/a") == 0u);
}

BOOST_AUTO_TEST_CASE(the_secret_list_names_every_canary_and_agent_run_s_environment_carries_the_keys) {
  test::SecurityFixture scene;
  BOOST_TEST(scene.canaries().secrets().size() == 13u);
  std::string environment;
  for (const std::string& entry : scene.environment()) environment += entry + "\n";
  BOOST_TEST(environment.find(scene.canaries().api_key) != std::string::npos);
  BOOST_TEST(environment.find(scene.canaries().database) != std::string::npos);
  BOOST_TEST(environment.find("HOME=" + scene.home().string()) != std::string::npos);
  for (const auto& [what, secret] : scene.canaries().secrets()) {
    BOOST_TEST(secret.find("CANARY-") == 0u, what);
  }
}

BOOST_AUTO_TEST_CASE(agent_run_tool_runs_in_the_scene_and_reports_each_call) {
  test::SecurityFixture scene;
  test::ToolRun run =
      scene.run_tool(scene.repository(), {}, {test::tool_call("read_file", Json::object().set("path", "README.md"))});
  BOOST_TEST(run.exit_code == 0, run.stderr_text);
  BOOST_REQUIRE(run.answers.size() == 1u);
  BOOST_TEST(run.answers[0].verdict == "allowed");
  BOOST_TEST(run.answers[0].content.find("A small project") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
