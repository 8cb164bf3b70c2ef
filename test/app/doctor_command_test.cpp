#include "support/fixtures.h"
#include "support/loopback_listener.h"
#include "support/sandbox_support.h"

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <optional>

using namespace agent_run;
using namespace agent_run::test;
namespace fs = std::filesystem;

namespace {

/// Runs `agent-run doctor --workspace WORKSPACE` under `env -i` with only `environment` (KEY=VALUE words):
/// no key or endpoint of the test's own environment leaks in.
CommandResult run_doctor(const TempFolder& workspace, const std::string& environment) {
  const std::string path = "PATH=/usr/local/bin:/usr/bin:/bin";
  const std::string command = "env -i HOME=" + shell_quote(workspace.path().string()) + " " +
                              (environment.find("PATH=") == std::string::npos ? path + " " : std::string()) +
                              environment + " " + shell_quote(agent_run_binary()) + " doctor --workspace " +
                              shell_quote(workspace.path().string()) + " 2>&1";
  return run_shell(command, workspace.path());
}

/// A folder of links to the programs a run needs but bubblewrap: the PATH of a machine without it.
void link_programs_but_bubblewrap(const fs::path& folder) {
  fs::create_directories(folder);
  for (const char* program : {"git", "rg", "sh", "env", "true", "setpriv", "unshare", "nsenter"}) {
    for (const char* in : {"/usr/bin/", "/bin/"}) {
      if (fs::exists(fs::path(in) / program)) {
        fs::create_symlink(fs::path(in) / program, folder / program);
        break;
      }
    }
  }
}

/// A port on 127.0.0.1 that nothing listens on: a listener's, closed again.
int closed_port() {
  std::optional<LoopbackListener> listener;
  listener.emplace();
  const int port = listener->port();
  listener.reset();
  return port;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(doctor_command)

BOOST_AUTO_TEST_CASE(says_a_run_would_work_where_bubblewrap_git_and_ripgrep_are_found,
                     *boost::unit_test::precondition(sandbox_usable)) {
  TempFolder workspace;
  workspace.write("README.md", "hello\n");
  CommandResult result = run_doctor(workspace, "");
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 0);
  BOOST_TEST(result.output.find("ok   sandbox: bubblewrap works") != std::string::npos);
  BOOST_TEST(result.output.find("ok   git: ") != std::string::npos);
  BOOST_TEST(result.output.find("ok   ripgrep: ") != std::string::npos);
  BOOST_TEST(result.output.find("ANTHROPIC_API_KEY is not set") != std::string::npos);
  BOOST_TEST(result.output.find("a run would work\n") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(without_bubblewrap_on_path_says_how_to_install_it_and_fails) {
  TempFolder workspace;
  TempFolder programs;
  link_programs_but_bubblewrap(programs.path() / "bin");
  CommandResult result = run_doctor(workspace, "PATH=" + shell_quote((programs.path() / "bin").string()));
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 1);
  BOOST_TEST(result.output.find("FAIL sandbox: bubblewrap not installed") != std::string::npos);
  BOOST_TEST(result.output.find("apt-get install bubblewrap") != std::string::npos);
  BOOST_TEST(result.output.find("a run would fail") != std::string::npos);
}

// The sandbox shows the folders on PATH, even under the machine's /tmp (which it replaces): a
// language server there is found on the host and works inside.
BOOST_AUTO_TEST_CASE(a_language_server_on_path_under_tmp_is_visible_in_the_sandbox,
                     *boost::unit_test::precondition(sandbox_usable)) {
  TempFolder workspace(visible_scratch());
  workspace.write("go.mod", "module example.com/m\n\ngo 1.21\n");
  workspace.write("main.go", "package main\n\nfunc main() {}\n");
  TempFolder under_tmp(fs::path("/tmp"));
  const fs::path gopls = under_tmp.write("bin/gopls", "#!/bin/sh\nexit 0\n");
  fs::permissions(gopls, fs::perms::owner_all, fs::perm_options::replace);
  CommandResult result = run_doctor(
      workspace, "PATH=" + shell_quote((under_tmp.path() / "bin").string()) + ":/usr/local/bin:/usr/bin:/bin");
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.output.find("go server gopls: " + gopls.string() + ", visible in the sandbox") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(an_endpoint_that_refuses_fails_and_one_that_answers_passes_without_printing_the_key,
                     *boost::unit_test::precondition(sandbox_usable)) {
  TempFolder workspace;
  LoopbackListener answering;
  const int refusing = closed_port();
  const std::string key = "sk-doctor-test-secret-4711";
  CommandResult refused = run_doctor(workspace, "OPENAI_API_KEY=" + key + " OPENAI_BASE_URL=http://127.0.0.1:" +
                                                    std::to_string(refusing) + "/v1");
  BOOST_TEST_INFO(refused.output);
  BOOST_TEST(refused.exit_code == 1);
  BOOST_TEST(refused.output.find("FAIL openai: OPENAI_API_KEY is set; http://127.0.0.1:" + std::to_string(refusing) +
                                 "/v1: no answer at 127.0.0.1:" + std::to_string(refusing)) != std::string::npos);
  BOOST_TEST(refused.output.find(key) == std::string::npos);

  CommandResult answered = run_doctor(workspace, "OPENAI_API_KEY=" + key + " OPENAI_BASE_URL=http://127.0.0.1:" +
                                                     std::to_string(answering.port()) + "/v1");
  BOOST_TEST_INFO(answered.output);
  BOOST_TEST(answered.exit_code == 0);
  BOOST_TEST(answered.output.find("ok   openai: OPENAI_API_KEY is set; http://127.0.0.1:" +
                                  std::to_string(answering.port()) + "/v1 answers") != std::string::npos);
  BOOST_TEST(answered.output.find(key) == std::string::npos);
  BOOST_TEST(answering.connections() >= 1);
}

BOOST_AUTO_TEST_SUITE_END()
