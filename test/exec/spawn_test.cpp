// spawn_child, the one spawner: every child starts with descriptors 0, 1 and 2 only, its signal
// mask empty and every signal at its default action. A descriptor the runner inherited without
// close-on-exec (a folder its parent opened) would otherwise reach bash, the checks, the servers and
// bubblewrap, and through /proc/self/fd/N open files beneath every mask of the sandbox (issue 27
// case 1); a signal the runner ignores or blocks (SIGPIPE) would stay ignored or blocked in them,
// and `yes | head` would never end. Each kind of child below is started through the spawner's
// entry its users take, with both hazards in place.
#include "exec/spawn.h"
#include "exec/attempt_sandbox.h"
#include "exec/background_process.h"
#include "exec/child_process.h"
#include "exec/own_children.h"
#include "exec/process.h"
#include "support/fixtures.h"
#include "support/sandbox_support.h"

#include <boost/test/unit_test.hpp>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <functional>
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
  /// A command that reads the canary through /proc/self/fd, then lists the descriptors `ls` has.
  std::vector<std::string> probe() const {
    return {"sh", "-c",
            "cat /proc/self/fd/" + std::to_string(m_fd) + "/canary.txt 2>/dev/null; echo fds: $(ls /proc/self/fd)"};
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

/// The signal mask (`SigBlk`) or the ignored signals (`SigIgn`) that probe() printed, or nullopt.
std::optional<unsigned long long> signal_set(const std::string& output, const std::string& name) {
  std::size_t at = output.find(name + ":");
  if (at == std::string::npos) return std::nullopt;
  return std::stoull(output.substr(at + name.size() + 1), nullptr, 16);
}

unsigned long long bit(int signal) { return 1ULL << (signal - 1); }

/// While alive, this process ignores SIGPIPE and SIGUSR2 and this thread blocks SIGUSR1, as a
/// runner may (or the CI step that started it): what a child must not inherit.
class SignalHazards {
 public:
  SignalHazards() {
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    ::sigaction(SIGPIPE, &ignore, &m_pipe);
    ::sigaction(SIGUSR2, &ignore, &m_usr2);
    sigset_t blocked;
    sigemptyset(&blocked);
    sigaddset(&blocked, SIGUSR1);
    ::pthread_sigmask(SIG_BLOCK, &blocked, &m_mask);
  }
  ~SignalHazards() {
    ::pthread_sigmask(SIG_SETMASK, &m_mask, nullptr);
    ::sigaction(SIGUSR2, &m_usr2, nullptr);
    ::sigaction(SIGPIPE, &m_pipe, nullptr);
  }
  SignalHazards(const SignalHazards&) = delete;
  SignalHazards& operator=(const SignalHazards&) = delete;

  static constexpr const char* k_ignored = "SigIgn";
  static constexpr const char* k_blocked = "SigBlk";
  static unsigned long long ignored() { return bit(SIGPIPE) | bit(SIGUSR2); }
  static unsigned long long blocked() { return bit(SIGUSR1); }
  /// glibc's own signals (32 and 33, SIGCANCEL and SIGSETXID), which no sigset_t of a program can
  /// hold: glibc 2.36's posix_spawn leaves them ignored in every child, and the child's libc sets
  /// its own handlers for them.
  static unsigned long long libc_internal() { return bit(32) | bit(33); }

  /// A command that prints its signal mask and the signals it ignores (grep, exec'd directly: a
  /// shell would clear its mask first).
  static std::vector<std::string> probe() { return {"grep", "-E", "^Sig(Blk|Ign):", "/proc/self/status"}; }

  /// BOOST_TEST that the probe's output shows nothing blocked and nothing ignored.
  static void check_defaults(const std::string& output, const std::string& child) {
    auto mask = signal_set(output, k_blocked);
    auto ignored_now = signal_set(output, k_ignored);
    BOOST_REQUIRE_MESSAGE(mask && ignored_now, child << " did not print its signals: " << output);
    BOOST_TEST(*mask == 0ULL, child << " blocks signals (SigBlk " << std::hex << *mask << "): " << output);
    BOOST_TEST((*ignored_now & ~libc_internal()) == 0ULL,
               child << " ignores signals (SigIgn " << std::hex << *ignored_now << "): " << output);
  }

 private:
  struct sigaction m_pipe {};
  struct sigaction m_usr2 {};
  sigset_t m_mask;
};

/// Both hazards at once, for one kind of child: an inherited folder and the signals ignored and blocked.
struct Hazards {
  InheritedFolder inherited;
  SignalHazards signals;

  /// BOOST_TEST what `run` (a command started as one kind of child, to its output) gives each probe.
  void check(const std::function<std::string(const std::vector<std::string>&)>& run, const std::string& child) const {
    inherited.check_unreached(run(inherited.probe()), child);
    SignalHazards::check_defaults(run(SignalHazards::probe()), child);
  }
};

/// `argv` as a ProcessSpec: no timeout, the runner's folder and environment.
ProcessSpec command(const std::vector<std::string>& argv) {
  ProcessSpec spec;
  spec.argv = argv;
  return spec;
}

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

BOOST_FIXTURE_TEST_CASE(a_child_started_without_the_spawner_reaches_an_inherited_folder_and_keeps_the_signals,
                        Hazards) {
  // The positive control: where nothing closes the descriptor or resets the signals, the probe
  // reads the canary, and a child inherits what the runner ignores and blocks.
  auto run = [](std::vector<std::string> words) {
    int ends[2];
    BOOST_REQUIRE(::pipe2(ends, O_CLOEXEC) == 0);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, ends[1], 1);
    std::vector<char*> argv;
    for (std::string& word : words) argv.push_back(word.data());
    argv.push_back(nullptr);
    pid_t pid = -1;
    BOOST_REQUIRE(::posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ) == 0);
    posix_spawn_file_actions_destroy(&actions);
    ::close(ends[1]);
    std::string output = read_to_end(ends[0]);
    ::close(ends[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    return output;
  };
  std::string reached = run(inherited.probe());
  BOOST_TEST(reached.find(inherited.canary()) != std::string::npos, reached);
  BOOST_TEST(reached.find(" " + std::to_string(inherited.fd())) != std::string::npos, reached);
  std::string kept = run(SignalHazards::probe());
  auto ignored = signal_set(kept, SignalHazards::k_ignored);
  auto blocked = signal_set(kept, SignalHazards::k_blocked);
  BOOST_REQUIRE_MESSAGE(ignored && blocked, kept);
  BOOST_TEST((*ignored & SignalHazards::ignored()) == SignalHazards::ignored(), kept);
  BOOST_TEST((*blocked & SignalHazards::blocked()) == SignalHazards::blocked(), kept);
}

BOOST_FIXTURE_TEST_CASE(a_command_run_to_completion_gets_only_0_1_and_2_and_default_signals, Hazards) {
  // Checks, setup, the agent's bash, web_search, one-shot linters, version probes: run_process.
  check(
      [](const std::vector<std::string>& argv) {
        auto result = run_process(command(argv));
        BOOST_REQUIRE(result.has_value());
        return result->output;
      },
      "run_process");
}

BOOST_FIXTURE_TEST_CASE(a_background_process_gets_only_0_1_and_2_and_default_signals, Hazards) {
  check(
      [](const std::vector<std::string>& argv) {
        auto process = BackgroundProcess::start(command(argv), "bg-1", "probe");
        BOOST_REQUIRE(process.has_value());
        std::string output;
        for (BackgroundRead read = (*process)->read_new(60s);; read = (*process)->read_new(60s)) {
          output += read.output;
          if (!read.running) break;
        }
        return output;
      },
      "a background process");
}

BOOST_FIXTURE_TEST_CASE(a_long_lived_child_with_pipes_gets_only_0_1_and_2_and_default_signals, Hazards) {
  // Language servers, MCP stdio servers and bubblewrap's holder: ChildProcess.
  check(
      [](const std::vector<std::string>& argv) {
        auto child = ChildProcess::spawn(argv, {}, this_environment());
        BOOST_REQUIRE(child.has_value());
        std::string output = read_to_end(child->stdout_fd());
        BOOST_REQUIRE(child->wait_exit(60s));
        return output;
      },
      "ChildProcess");
}

BOOST_FIXTURE_TEST_CASE(a_child_on_two_pipes_gets_only_0_1_and_2_and_default_signals, Hazards) {
  // ripgrep: spawn_child itself, stdout and stderr apart.
  check(
      [](const std::vector<std::string>& argv) {
        ChildSpec spec;
        spec.argv = argv;
        spec.output = ChildOutput::two_pipes;
        auto spawned = spawn_child(spec);
        BOOST_REQUIRE(spawned.has_value());
        std::string output = read_to_end(spawned->output.get());
        int status = 0;
        ::waitpid(spawned->pid, &status, 0);
        forget_own_child(spawned->pid);
        return output;
      },
      "spawn_child");
}

BOOST_FIXTURE_TEST_CASE(a_command_in_the_attempt_s_sandbox_gets_only_0_1_and_2_and_default_signals, Hazards,
                        *boost::unit_test::precondition(test::sandbox_usable)) {
  // bubblewrap's holder (a ChildProcess) started with the hazards in place, then commands entered
  // into it (run_process over the sandbox's entry): what the agent's sandboxed bash and the checks
  // get. The entry goes through sh, which clears the mask: here only the ignored signals tell.
  test::TempFolder scratch;
  test::TempFolder workspace(test::visible_scratch());
  SandboxRequest request;
  request.workspace = workspace.path();
  auto sandbox = AttemptSandbox::start(request, scratch.path(), test::test_environment());
  BOOST_REQUIRE_MESSAGE(sandbox.has_value(), (sandbox ? std::string() : sandbox.error().message));
  check(
      [&](const std::vector<std::string>& argv) {
        ProcessSpec spec = command(argv);
        spec.cwd = workspace.path();
        spec.environment = test::test_environment();
        auto result = run_process((*sandbox)->wrap(spec));
        BOOST_REQUIRE(result.has_value());
        return result->output;
      },
      "a command in the sandbox");
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
