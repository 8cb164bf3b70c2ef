#include "base/files.h"
#include "base/json.h"
#include "report/report_reader.h"
#include "support/fixtures.h"
#include "support/skip_variables.h"
#include "support/process_probes.h"
#include "support/waiting.h"

#include <boost/test/unit_test.hpp>

#include <signal.h>
#include <spawn.h>
#include <sys/mount.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <map>
#include <random>
#include <thread>

extern char** environ;

namespace agent_run {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

// How many times the run is killed (SIGKILL at a random moment, then --resume) before it may
// finish: a few in ctest; ci/crash-resume.sh sets more. The seed makes a failing sequence repeatable.
constexpr const char* k_rounds_variable = "AGENT_RUN_CRASH_ROUNDS";
constexpr const char* k_seed_variable = "AGENT_RUN_CRASH_SEED";
// Set where the test may not mount a tmpfs (not root, no CAP_SYS_ADMIN), to skip rather than fail.
constexpr const char* k_skip_mount_variable = "AGENT_RUN_SKIP_MOUNT_TESTS";

const char* k_policy = R"(version: 1
unmatched: deny
rules:
  - id: edits
    allow: [edit_file, write_file]
  - id: commands
    allow: bash
    argv_prefix: [[sh, sleep, seq]]
)";

std::string quick_task(const std::string& word) {
  return "prompt: say " + word + "\npolicy: ../policy.yaml\nchecks:\n  - run: \"grep -q " + word +
         " greet.sh\"\nscript:\n  - call: {tool: read_file, input: {path: greet.sh}}\n"
         "  - call: {tool: edit_file, input: {path: greet.sh, old: bye, new: " +
         word + "}}\n  - say: Done.\n";
}

/// A task whose commands take a while and leave work behind: a background process and an escape.
std::string busy_task() {
  return "prompt: be busy\npolicy: ../policy.yaml\nscript:\n"
         "  - call: {tool: bash, input: {command: sleep 1000, background: true}}\n"
         "  - call: {tool: bash, input: {command: sh escape.sh}}\n"
         "  - call: {tool: bash, input: {command: sleep 0.3}}\n  - say: Done.\n";
}

/// The content of `file`, or "" when it cannot be read.
std::string text_of(const fs::path& file) {
  auto text = read_file(file);
  return text ? *text : std::string();
}

/// A repository of tasks run with a TMPDIR of its own, to be killed and resumed.
struct CrashFixture {
  test::TempFolder temp;
  fs::path repo = temp.path() / "repo";
  fs::path tmp = temp.path() / "tmp";
  fs::path out = temp.path() / "out";
  std::vector<std::string> tasks;

  CrashFixture() {
    fs::create_directories(tmp);
    std::map<std::string, std::string> files = {
        {"greet.sh", "echo bye\n"},
        {"policy.yaml", k_policy},
        {"escape.sh",
         "setsid sleep 1000 >/dev/null 2>&1 &\np=$!\n"
         "until [ \"$(cat /proc/$p/comm 2>/dev/null)\" = sleep ]; do sleep 0.01; done\n"}};
    for (const char* word : {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot"}) {
      files[std::string("tasks/") + word + ".yaml"] = quick_task(word);
      tasks.push_back(std::string("tasks/") + word + ".yaml");
    }
    for (const char* name : {"busy-one", "busy-two"}) {
      files[std::string("tasks/") + name + ".yaml"] = busy_task();
      tasks.push_back(std::string("tasks/") + name + ".yaml");
    }
    test::make_git_repository(repo, files);
  }

  std::vector<std::string> arguments(bool resume) const {
    std::vector<std::string> line = tasks;
    for (const char* word : {"--repeat", "2", "-j", "2", "--no-diagnostics", "--quiet", "--out"}) line.push_back(word);
    line.push_back(out.string());
    if (resume) line.push_back("--resume");
    return line;
  }

  /// Starts agent-run in the repository with the fixture's TMPDIR; returns its pid.
  pid_t start(bool resume) const {
    std::string line = "cd " + test::shell_quote(repo.string()) +
                       " && exec env TMPDIR=" + test::shell_quote(tmp.string()) + " " +
                       test::shell_quote(test::agent_run_binary());
    for (const std::string& argument : arguments(resume)) line += " " + test::shell_quote(argument);
    line += " >>" + test::shell_quote((temp.path() / "runs.log").string()) + " 2>&1";
    const char* argv[] = {"/bin/sh", "-c", line.c_str(), nullptr};
    pid_t pid = -1;
    BOOST_REQUIRE(::posix_spawn(&pid, "/bin/sh", nullptr, nullptr, const_cast<char**>(argv), environ) == 0);
    return pid;
  }

  std::size_t planned() const { return tasks.size() * 2; }
};

/// Waits for `pid` (up to five minutes) and returns its exit code, or 128 + the signal that ended it.
int wait_for(pid_t pid) {
  int status = 0;
  BOOST_REQUIRE_MESSAGE(
      test::wait_until([&] { return ::waitpid(pid, &status, WNOHANG) == pid; }, std::chrono::minutes(5)),
      "agent-run did not end within five minutes");
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/// Checks that the reports in `out`, whatever moment the run was killed at, are valid and hold no
/// attempt twice; returns how many attempts report.json holds (0 when it was never written).
std::size_t check_reports_valid(const fs::path& out) {
  if (!fs::exists(out / "report.json")) return 0;
  auto report = read_report_file(out / "report.json");
  BOOST_REQUIRE_MESSAGE(report.has_value(),
                        "report.json is not a valid report: " << (report ? std::string() : report.error().message));
  std::map<std::string, int> seen;
  for (const AttemptResult& attempt : report->attempts) {
    BOOST_TEST(++seen[attempt.task_id + " #" + std::to_string(attempt.n)] == 1, attempt.task_id);
  }
  if (fs::exists(out / "junit.xml")) {
    test::CommandResult xmllint =
        test::run_shell("xmllint --noout --schema " + test::shell_quote(test::junit_schema()) + " junit.xml", out);
    BOOST_TEST(xmllint.exit_code == 0, xmllint.output);
  }
  return report->attempts.size();
}

int rounds() {
  const char* set = std::getenv(k_rounds_variable);
  return set ? std::max(1, std::atoi(set)) : 6;
}

unsigned seed() {
  const char* set = std::getenv(k_seed_variable);
  return set ? static_cast<unsigned>(std::strtoul(set, nullptr, 10))
             : std::random_device{}();  // a new sequence each run, printed so that a failure can be repeated
}

}  // namespace

BOOST_AUTO_TEST_SUITE(crash_safety)

/// The end of a run that finished: every attempt once, passed, and nothing of the killed runs before
/// it left (processes, worktrees, branches, scratch folders).
void check_complete(const CrashFixture& fixture) {
  BOOST_TEST_INFO("the runs said:\n" << text_of(fixture.temp.path() / "runs.log"));
  BOOST_TEST(check_reports_valid(fixture.out) == fixture.planned());
  auto report = read_report_file(fixture.out / "report.json");
  BOOST_REQUIRE(report.has_value());
  for (const AttemptResult& attempt : report->attempts) {
    BOOST_TEST((attempt.outcome == Outcome::passed), attempt.task_id << ": " << attempt.message);
  }
  BOOST_TEST(!report->interrupted);
  BOOST_TEST(test::processes_naming(fixture.tmp.string()).empty());
  BOOST_TEST((!fs::exists(fixture.tmp / "agent-run") || fs::is_empty(fixture.tmp / "agent-run")));
  BOOST_TEST(test::run_shell("git worktree list | wc -l", fixture.repo).output == "1\n");
  BOOST_TEST(test::run_shell("git branch --list 'agent-run/*'", fixture.repo).output == "");
  BOOST_TEST(test::run_shell("git status --porcelain", fixture.repo).output == "");
}

// SIGKILL at a random moment, then --resume, again and again until the run finishes by itself;
// then a fresh run the same way, until the run has been killed the number of times asked for. After
// every kill the reports are valid and hold each attempt at most once; each finished run is complete.
BOOST_AUTO_TEST_CASE(sigkill_at_random_moments_then_resume_ends_with_every_attempt_once) {
  CrashFixture fixture;
  const unsigned used_seed = seed();
  // On the test's own output, which ctest and CI show whatever Boost.Test's log level (a
  // BOOST_TEST_MESSAGE is not), and in the context of every failure below.
  std::cout << "crash_safety: seed " << used_seed << " (" << k_seed_variable << "=" << used_seed << " repeats it), "
            << rounds() << " kills (" << k_rounds_variable << ")" << std::endl;
  BOOST_TEST_CONTEXT("seed " << used_seed << " (" << k_seed_variable << "=" << used_seed << " repeats it)") {
    std::mt19937 random(used_seed);
    std::uniform_int_distribution<int> moment_ms(0, 1200);
    int kills = 0;
    for (int cycle = 1; kills < rounds(); ++cycle) {
      fs::remove_all(fixture.out);
      for (bool resume = false;; resume = true) {
        pid_t run = fixture.start(resume);
        int delay = -1;
        if (kills < rounds()) {
          delay = moment_ms(random);
          std::this_thread::sleep_for(std::chrono::milliseconds(delay));  // the fault: a kill at a random moment
          ::kill(run, SIGKILL);
        }
        int exit_code = wait_for(run);
        BOOST_TEST_CONTEXT("run " << cycle << ", killed after " << delay << " ms (exit " << exit_code << ")") {
          std::size_t held = check_reports_valid(fixture.out);
          BOOST_TEST_MESSAGE("run " << cycle << (resume ? " resumed" : "") << ": "
                                    << (exit_code == 128 + SIGKILL ? "killed after " + std::to_string(delay) + " ms"
                                                                   : "exit " + std::to_string(exit_code))
                                    << ", " << held << " of " << fixture.planned() << " attempts reported");
          if (exit_code == 128 + SIGKILL) {
            ++kills;
            continue;
          }
          BOOST_TEST_INFO(text_of(fixture.temp.path() / "runs.log"));
          BOOST_TEST(exit_code == 0);
        }
        break;
      }
      check_complete(fixture);
    }
  }
}

namespace {

/// Six quick tasks and a seventh that, the first time it runs, writes its shell's pid and sleeps
/// (later it passes at once): a run with -j 1 is killed after exactly six attempts have finished.
struct SixThenStuck {
  test::TempFolder temp;
  fs::path repo = temp.path() / "repo";
  fs::path tmp = temp.path() / "tmp";
  fs::path out = temp.path() / "out";
  fs::path pid_file = temp.path() / "stuck.pid";
  std::vector<std::string> arguments;

  SixThenStuck() {
    fs::create_directories(tmp);
    fs::path mark = temp.path() / "mark";
    fs::path script = temp.write("stuck-once.sh", "test -e " + mark.string() + " && exit 0\ntouch " + mark.string() +
                                                      "\necho $$ > " + pid_file.string() + "\nexec sleep 1000\n");
    std::map<std::string, std::string> files = {{"greet.sh", "echo bye\n"}, {"policy.yaml", k_policy}};
    for (const char* word : {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot"}) {
      files[std::string("tasks/") + word + ".yaml"] = quick_task(word);
      arguments.push_back(std::string("tasks/") + word + ".yaml");
    }
    // sandbox: off: its script and pid file lie in the machine's /tmp, which a sandbox's own /tmp hides.
    files["tasks/zulu.yaml"] = "prompt: be stuck once\npolicy: ../policy.yaml\nsandbox: off\nscript:\n"
                               "  - call: {tool: bash, input: {command: \"sh " + script.string() + "\"}}\n"
                               "  - say: Done.\n";
    arguments.push_back("tasks/zulu.yaml");
    for (const char* word : {"-j", "1", "--no-diagnostics", "--out"}) arguments.push_back(word);
    arguments.push_back(out.string());
    test::make_git_repository(repo, files);
  }

  std::string command(bool resume) const {
    std::string line = "cd " + test::shell_quote(repo.string()) + " && exec env TMPDIR=" +
                       test::shell_quote(tmp.string()) + " " + test::shell_quote(test::agent_run_binary());
    for (const std::string& argument : arguments) line += " " + test::shell_quote(argument);
    return line + (resume ? " --resume" : "");
  }
};

/// The attempts of `report` as `task #n outcome`.
std::vector<std::string> attempts_of(const RunReport& report) {
  std::vector<std::string> out;
  for (const AttemptResult& attempt : report.attempts) {
    out.push_back(attempt.task_id + " #" + std::to_string(attempt.n) + " " + to_string(attempt.outcome));
  }
  return out;
}

const std::vector<std::string> k_six_passed = {"alpha #1 passed", "bravo #1 passed", "charlie #1 passed",
                                               "delta #1 passed", "echo #1 passed",  "foxtrot #1 passed"};

}  // namespace

// Killed (SIGKILL) after six attempts: report.json itself was last rewritten after the fourth (the
// reports are rewritten whole after attempts 1, 2, 4, 8, ...) and the journal beside it holds the
// fifth and sixth; the reader, --resume and merge recover exactly the six, each once.
BOOST_AUTO_TEST_CASE(a_kill_after_six_attempts_leaves_report_json_and_journal_that_read_back_as_the_six) {
  SixThenStuck run;
  const char* argv[] = {"/bin/sh", "-c", nullptr, nullptr};
  std::string line = run.command(false) + " >" + test::shell_quote((run.temp.path() / "run.log").string()) + " 2>&1";
  argv[2] = line.c_str();
  pid_t pid = -1;
  BOOST_REQUIRE(::posix_spawn(&pid, "/bin/sh", nullptr, nullptr, const_cast<char**>(argv), environ) == 0);
  BOOST_REQUIRE_MESSAGE(!test::wait_for_line_in(run.pid_file).empty(), "the seventh attempt never started");
  auto six_read_back = [&] {
    auto report = read_report_file(run.out / "report.json");
    return report && report->attempts.size() == 6;
  };
  BOOST_REQUIRE_MESSAGE(test::wait_until(six_read_back), "the six finished attempts never read back");
  ::kill(pid, SIGKILL);
  BOOST_TEST(wait_for(pid) == 128 + SIGKILL);
  ::kill(static_cast<pid_t>(std::stol(text_of(run.pid_file))), SIGKILL);  // the sleeper the kill left

  auto raw = parse_json(text_of(run.out / "report.json"));
  BOOST_REQUIRE(raw.has_value());
  BOOST_TEST(raw->find("attempts")->as_array().size() == 4u);  // not rewritten after the fifth and sixth
  auto report = read_report_file(run.out / "report.json");
  BOOST_REQUIRE_MESSAGE(report.has_value(), (report ? std::string() : report.error().message));
  BOOST_TEST(attempts_of(*report) == k_six_passed, boost::test_tools::per_element());
  BOOST_TEST(check_reports_valid(run.out) == 6u);
  test::check_report_folder(run.out);

  test::CommandResult merged =
      test::run_agent_run({"merge", run.out.string(), "--out", (run.temp.path() / "merged").string()}, run.temp.path());
  BOOST_TEST(merged.exit_code == 0, merged.output);
  auto merged_report = read_report_file(run.temp.path() / "merged/report.json");
  BOOST_REQUIRE(merged_report.has_value());
  BOOST_TEST(attempts_of(*merged_report) == k_six_passed, boost::test_tools::per_element());

  test::CommandResult resumed = test::run_shell(run.command(true) + " 2>&1", run.repo);
  BOOST_TEST(resumed.exit_code == 0, resumed.output);
  BOOST_TEST(resumed.output.find("resume: 6 of 7 attempts already done, 1 to run") != std::string::npos,
             resumed.output);
  auto finished = parse_json(text_of(run.out / "report.json"));
  BOOST_REQUIRE(finished.has_value());
  BOOST_TEST(finished->find("attempts")->as_array().size() == 7u);  // the last write: whole
  BOOST_TEST(!fs::exists(run.out / "report.journal.jsonl"));
  BOOST_TEST(check_reports_valid(run.out) == 7u);
}

namespace {

/// A small tmpfs mounted for the test and unmounted after it (this machine's tests run as root).
class SmallDisk {
 public:
  SmallDisk(const fs::path& at, const std::string& size) : m_at(at) {
    fs::create_directories(at);
    std::string options = "size=" + size;
    m_mounted = ::mount("tmpfs", at.c_str(), "tmpfs", 0, options.c_str()) == 0;
    if (!m_mounted) m_error = std::strerror(errno);
  }
  ~SmallDisk() {
    if (m_mounted) ::umount2(m_at.c_str(), MNT_DETACH);
  }
  SmallDisk(const SmallDisk&) = delete;
  SmallDisk& operator=(const SmallDisk&) = delete;
  bool mounted() const { return m_mounted; }
  const std::string& error() const { return m_error; }

 private:
  fs::path m_at;
  bool m_mounted = false;
  std::string m_error;
};

}  // namespace

// The report folder is on a disk that fills up during the run: the report of what finished before
// stays as it was, valid, the run stops with a message that says what happened, and exits 3.
BOOST_AUTO_TEST_CASE(a_full_disk_while_writing_reports_keeps_the_last_valid_report_and_exits_3) {
  test::TempFolder temp;
  SmallDisk disk(temp.path() / "disk", "256k");
  if (!disk.mounted() && test::skip_requested(k_skip_mount_variable)) {
    BOOST_TEST_MESSAGE("skipped (" << k_skip_mount_variable << "=1): cannot mount a tmpfs: " << disk.error());
    return;
  }
  BOOST_REQUIRE_MESSAGE(disk.mounted(), "cannot mount a tmpfs for the test ("
                                            << disk.error() << "); run as root, or set " << k_skip_mount_variable
                                            << "=1");
  fs::path out = temp.path() / "disk/out";
  fs::path filler = temp.path() / "disk/filler";
  test::TempFolder repo;
  // b-fills' setup fills the disk: its own report is the first that cannot be written.
  test::make_git_repository(
      repo.path(), {{"greet.sh", "echo bye\n"},
                    {"policy.yaml", k_policy},
                    {"tasks/a-first.yaml", quick_task("alpha")},
                    {"tasks/b-fills.yaml", "prompt: x\npolicy: ../policy.yaml\nsetup: [\"dd if=/dev/zero of=" +
                                               filler.string() + " bs=4k 2>/dev/null; true\"]\nscript: [{say: hi}]\n"},
                    {"tasks/c-later.yaml", quick_task("charlie")}});
  test::CommandResult result = test::run_agent_run(
      {"tasks/a-first.yaml", "tasks/b-fills.yaml", "tasks/c-later.yaml", "--out", out.string(), "--no-diagnostics"},
      repo.path());
  BOOST_TEST_INFO(result.output);
  BOOST_TEST(result.exit_code == 3);
  BOOST_TEST(result.output.find("agent-run: cannot write the reports: " + (out / "report.json").string() +
                                ": cannot write: No space left on device") != std::string::npos);
  BOOST_TEST(result.output.find((out / "report.json").string() + " holds what was written before") !=
             std::string::npos);
  auto raw = parse_json(text_of(out / "report.json"));
  BOOST_REQUIRE(raw.has_value());
  BOOST_TEST(raw->find("attempts")->as_array().size() == 1u);
  // With the journal: b-fills too when its line still fitted in the journal's last page of disk.
  auto report = read_report_file(out / "report.json");
  BOOST_REQUIRE_MESSAGE(report.has_value(), (report ? std::string() : report.error().message));
  BOOST_REQUIRE_GE(report->attempts.size(), 1u);
  BOOST_REQUIRE_LE(report->attempts.size(), 2u);
  BOOST_TEST(report->attempts[0].task_id == "a-first");
  if (report->attempts.size() == 2) BOOST_TEST(report->attempts[1].task_id == "b-fills");
  test::CommandResult xmllint =
      test::run_shell("xmllint --noout --schema " + test::shell_quote(test::junit_schema()) + " junit.xml", out);
  BOOST_TEST(xmllint.exit_code == 0, xmllint.output);
  for (const auto& entry : fs::directory_iterator(out)) {
    BOOST_TEST(entry.path().filename().string().find(".tmp-") == std::string::npos,
               entry.path());  // no half-written file
  }
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
