// spawn_child, the one spawner: every child starts with descriptors 0, 1 and 2 only. A descriptor
// the runner inherited without close-on-exec (a folder its parent opened) would otherwise reach
// bash, the checks, the servers and bubblewrap, and through /proc/self/fd/N open files beneath every
// mask of the sandbox (issue 27 case 1).
#include "exec/background_process.h"
#include "exec/child_process.h"
#include "exec/own_children.h"
#include "exec/process.h"
#include "exec/spawn.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <sstream>

extern char** environ;

using namespace agent_run;
using namespace std::chrono_literals;

namespace {

/// A folder holding canary.txt, opened in this process without close-on-exec at descriptor 200 or
/// above, as agent-run's own parent may leave one open.
class InheritedFolder {
 public:
  InheritedFolder() {
    m_folder.write("canary.txt", m_canary + "\n");
    int opened = ::open(m_folder.path().c_str(), O_RDONLY | O_DIRECTORY);  // no O_CLOEXEC, on purpose
    BOOST_REQUIRE(opened >= 0);
    m_fd = ::fcntl(opened, F_DUPFD, 200);  // F_DUPFD: the copy is inherited across exec
    ::close(opened);
    BOOST_REQUIRE(m_fd >= 200);
  }
  ~InheritedFolder() { ::close(m_fd); }
  InheritedFolder(const InheritedFolder&) = delete;
  InheritedFolder& operator=(const InheritedFolder&) = delete;

  int fd() const { return m_fd; }
  const std::string& canary() const { return m_canary; }
  /// A script that reads the canary through /proc/self/fd, then lists the descriptors `ls` has.
  std::string probe() const {
    return "cat /proc/self/fd/" + std::to_string(m_fd) + "/canary.txt 2>/dev/null; echo fds: $(ls /proc/self/fd)";
  }
  /// BOOST_TEST that `output` (of probe()) holds no canary and no descriptor but 0, 1, 2 and ls's own 3.
  void check_unreached(const std::string& output, const std::string& child) const {
    BOOST_TEST(output.find(m_canary) == std::string::npos, child << " read the canary: " << output);
    std::size_t at = output.find("fds:");
    BOOST_REQUIRE_MESSAGE(at != std::string::npos, child << " did not run the probe: " << output);
    std::istringstream list(output.substr(at + 4));
    for (int fd = 0; list >> fd;) BOOST_TEST(fd <= 3, child << " has descriptor " << fd << ": " << output);
  }

 private:
  test::TempFolder m_folder;
  std::string m_canary = "CANARY-inherited-descriptor-" + std::to_string(::getpid());
  int m_fd = -1;
};

std::vector<std::string> this_environment() {
  std::vector<std::string> environment;
  for (char** entry = environ; *entry; ++entry) environment.emplace_back(*entry);
  return environment;
}

/// Everything `fd` gives until its end (the child closed it), waiting as long as it takes.
std::string read_to_end(int fd) {
  std::string text;
  char buffer[4096];
  for (;;) {
    pollfd wait{fd, POLLIN, 0};
    if (::poll(&wait, 1, -1) < 0 && errno != EINTR) break;
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n > 0) text.append(buffer, static_cast<std::size_t>(n));
    else if (n == 0 || (errno != EAGAIN && errno != EINTR)) break;
  }
  return text;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(spawn)

BOOST_AUTO_TEST_CASE(a_child_started_without_the_spawner_reaches_an_inherited_folder) {
  // The positive control: the probe reads the canary where nothing closes the descriptor.
  InheritedFolder inherited;
  int ends[2];
  BOOST_REQUIRE(::pipe2(ends, O_CLOEXEC) == 0);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, ends[1], 1);
  std::string script = inherited.probe();
  std::vector<char*> argv = {const_cast<char*>("/bin/sh"), const_cast<char*>("-c"), script.data(), nullptr};
  pid_t pid = -1;
  BOOST_REQUIRE(::posix_spawn(&pid, "/bin/sh", &actions, nullptr, argv.data(), environ) == 0);
  posix_spawn_file_actions_destroy(&actions);
  ::close(ends[1]);
  std::string output = read_to_end(ends[0]);
  ::close(ends[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  BOOST_TEST(output.find(inherited.canary()) != std::string::npos, output);
  BOOST_TEST(output.find(" " + std::to_string(inherited.fd())) != std::string::npos, output);
}

BOOST_AUTO_TEST_CASE(a_command_run_to_completion_gets_only_0_1_and_2) {
  // Checks, setup, the agent's bash, web_search, version probes: run_process.
  InheritedFolder inherited;
  auto result = run_process(shell_command(inherited.probe(), {}, 0ms));
  BOOST_REQUIRE(result.has_value());
  inherited.check_unreached(result->output, "run_process");
}

BOOST_AUTO_TEST_CASE(a_background_process_gets_only_0_1_and_2) {
  InheritedFolder inherited;
  auto process = BackgroundProcess::start(shell_command(inherited.probe(), {}, 0ms), "bg-1", "probe");
  BOOST_REQUIRE(process.has_value());
  std::string output;
  for (BackgroundRead read = (*process)->read_new(60s);; read = (*process)->read_new(60s)) {
    output += read.output;
    if (!read.running) break;
  }
  inherited.check_unreached(output, "a background process");
}

BOOST_AUTO_TEST_CASE(a_long_lived_child_with_pipes_gets_only_0_1_and_2) {
  // Language servers, MCP servers and bubblewrap's holder: ChildProcess.
  InheritedFolder inherited;
  auto child = ChildProcess::spawn({"sh", "-c", inherited.probe()}, {}, this_environment());
  BOOST_REQUIRE(child.has_value());
  std::string output = read_to_end(child->stdout_fd());
  BOOST_REQUIRE(child->wait_exit(60s));
  inherited.check_unreached(output, "ChildProcess");
}

BOOST_AUTO_TEST_CASE(the_program_is_found_in_the_path_of_the_child_s_environment) {
  test::TempFolder shelf;
  shelf.write("agent-run-spawn-probe", "#!/bin/sh\necho found on its PATH\n");
  std::filesystem::permissions(shelf.path() / "agent-run-spawn-probe", std::filesystem::perms::owner_all);
  ChildSpec spec;
  spec.argv = {"agent-run-spawn-probe"};
  spec.environment = std::vector<std::string>{"PATH=" + shelf.path().string()};
  auto spawned = spawn_child(spec);
  BOOST_REQUIRE(spawned.has_value());
  BOOST_TEST(read_to_end(spawned->output.get()) == "found on its PATH\n");
  int status = 0;
  ::waitpid(spawned->pid, &status, 0);
  forget_own_child(spawned->pid);
  spec.environment = std::vector<std::string>{"PATH=/nonexistent-agent-run-path"};
  auto missing = spawn_child(spec);
  BOOST_REQUIRE(!missing.has_value());
  BOOST_TEST(missing.error().message == "cannot run 'agent-run-spawn-probe': not found on PATH");
}

BOOST_AUTO_TEST_SUITE_END()
