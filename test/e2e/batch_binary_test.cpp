#include "base/files.h"
#include "base/json.h"
#include "report/report_reader.h"
#include "report/report_writers.h"
#include "support/fixtures.h"
#include "support/waiting.h"

#include <boost/test/unit_test.hpp>

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <chrono>
#include <map>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace agent_run {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

const char* const k_policy =
    "version: 1\nunmatched: deny\nrules:\n  - id: all\n    allow: [edit_file, write_file, bash]\n";

/// A task that edits greet.sh and passes its check.
std::string quick_task(const std::string& word) {
  return "prompt: say " + word + "\npolicy: ../policy.yaml\nchecks:\n  - run: \"grep -q " + word +
         " greet.sh\"\nscript:\n  - call: {tool: read_file, input: {path: greet.sh}}\n"
         "  - call: {tool: edit_file, input: {path: greet.sh, old: bye, new: " +
         word + "}}\n  - say: Done.\n";
}

/// A task whose first attempt ever writes its shell's pid to `pid_file` and sleeps for five
/// minutes; once `mark` exists (every later attempt) it passes at once. The shell lines are a
/// script in `folder` (the policy's parser refuses `$$` in a bash call).
std::string slow_once_task(const test::TempFolder& folder, const fs::path& mark, const fs::path& pid_file) {
  fs::path script = folder.write("slow-once.sh", "test -e " + mark.string() + " && exit 0\ntouch " + mark.string() +
                                                     "\necho $$ > " + pid_file.string() + "\nexec sleep 300\n");
  // sandbox: off: the test signals the sleeper by its pid on the machine, and its script lies in
  // the machine's /tmp, which a sandbox's own /tmp hides.
  return "prompt: be slow once\npolicy: ../policy.yaml\nsandbox: off\nscript:\n  - call: {tool: bash, input: {command: "
         "\"sh " +
         script.string() + "\"}}\n  - say: Done.\n";
}

/// The content of `file`, or an empty string when it cannot be read.
std::string text_of(const fs::path& file) {
  auto text = read_file(file);
  return text ? *text : std::string();
}

bool is_running(pid_t pid) {
  auto stat = read_file("/proc/" + std::to_string(pid) + "/stat");
  if (!stat) return false;
  std::size_t state = stat->rfind(')') + 2;
  return state < stat->size() && (*stat)[state] != 'Z';
}

/// A repository with four tasks (one slow the first time), a TMPDIR of its own so the test sees
/// every scratch folder agent-run makes, and the report folder.
struct RunFixture {
  test::TempFolder temp;
  fs::path repo = temp.path() / "repo";
  fs::path tmp = temp.path() / "tmp";
  fs::path out = temp.path() / "out";
  fs::path pid_file = temp.path() / "sleeper.pid";

  RunFixture() {
    fs::create_directories(tmp);
    test::make_git_repository(repo, {{"greet.sh", "echo bye\n"},
                                     {"policy.yaml", k_policy},
                                     {"tasks/a-quick.yaml", quick_task("hello")},
                                     {"tasks/b-slow.yaml", slow_once_task(temp, temp.path() / "mark", pid_file)},
                                     {"tasks/c-quick.yaml", quick_task("howdy")},
                                     {"tasks/d-quick.yaml", quick_task("hi")}});
  }

  std::string command(const std::vector<std::string>& arguments) const {
    std::string line = "exec env TMPDIR=" + test::shell_quote(tmp.string()) + " " + test::shell_quote(test::agent_run_binary());
    for (const std::string& argument : arguments) line += " " + test::shell_quote(argument);
    return line;
  }

  /// Starts agent-run in the background (output to run.log); returns its pid.
  pid_t start(const std::vector<std::string>& arguments) const {
    std::string line = "cd " + test::shell_quote(repo.string()) + " && " + command(arguments) + " >" +
                       test::shell_quote((temp.path() / "run.log").string()) + " 2>&1";
    const char* argv[] = {"/bin/sh", "-c", line.c_str(), nullptr};
    pid_t pid = -1;
    BOOST_REQUIRE(::posix_spawn(&pid, "/bin/sh", nullptr, nullptr, const_cast<char**>(argv), environ) == 0);
    return pid;
  }

  /// Runs agent-run to the end in the foreground.
  test::CommandResult run(const std::vector<std::string>& arguments) const {
    return test::run_shell(command(arguments), repo);
  }

  /// Waits until the slow task's shell has written its pid and exec'd its sleep.
  void wait_for_the_sleeper() const {
    std::string pid = test::wait_for_line_in(pid_file);
    BOOST_REQUIRE_MESSAGE(!pid.empty(), "the slow task never started");
    fs::path comm = "/proc/" + pid.substr(0, pid.size() - 1) + "/comm";
    BOOST_REQUIRE(test::wait_until([&] { return text_of(comm) == "sleep\n"; }));
  }

  pid_t sleeper() const { return static_cast<pid_t>(std::stol(text_of(pid_file))); }

  Json report() const {
    auto json = parse_json(text_of(out / "report.json"));
    BOOST_REQUIRE_MESSAGE(json.has_value(), "report.json does not parse");
    return *json;
  }

  /// How many times each attempt (task, model, n) is in the report.
  std::map<std::string, int> attempt_counts() const {
    std::map<std::string, int> counts;
    Json json = report();
    for (const Json& attempt : json.find("attempts")->as_array()) {
      ++counts[attempt.get_string("task_id") + " " + attempt.get_string("model") + " " +
               std::to_string(attempt.find("n")->as_int())];
    }
    return counts;
  }

  /// Nothing of a run left: no scratch folder, no extra worktree, no agent-run/ branch.
  void check_nothing_left_behind() const {
    BOOST_TEST((!fs::exists(tmp / "agent-run") || fs::is_empty(tmp / "agent-run")));
    BOOST_TEST(test::run_shell("git worktree list | wc -l", repo).output == "1\n");
    BOOST_TEST(test::run_shell("git branch --list 'agent-run/*'", repo).output == "");
    BOOST_TEST(test::run_shell("git status --porcelain", repo).output == "");
  }
};

/// Waits for `pid` to end (up to two minutes: well before the slow task's sleep of five) and
/// returns its exit code, or 128 + the signal that ended it.
int wait_for_exit(pid_t pid) {
  int status = 0;
  if (test::wait_until([&] { return ::waitpid(pid, &status, WNOHANG) == pid; }, std::chrono::minutes(2))) {
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, &status, 0);
  BOOST_FAIL("agent-run did not exit within two minutes");
  return -1;
}

const std::map<std::string, int> k_every_attempt_once = {
    {"a-quick script 1", 1}, {"b-slow script 1", 1}, {"c-quick script 1", 1}, {"d-quick script 1", 1}};

void check_resumed_run(const RunFixture& fixture, const test::CommandResult& resumed) {
  BOOST_TEST_INFO(resumed.output);
  BOOST_TEST(resumed.exit_code == 0);
  BOOST_TEST(fixture.attempt_counts() == k_every_attempt_once);
  Json report = fixture.report();
  BOOST_TEST(report.find("run")->find("interrupted")->as_bool() == false);
  BOOST_TEST(report.find("run")->find("totals")->find("passed")->as_int() == 4);
  BOOST_TEST(!is_running(fixture.sleeper()));
  fixture.check_nothing_left_behind();
  test::check_report_folder(fixture.out);
}

/// Eight quick tasks in a repository, run with a TMPDIR of their own.
struct EightTasks {
  test::TempFolder temp;
  fs::path repo = temp.path() / "repo";
  std::vector<std::string> tasks;

  EightTasks() {
    std::map<std::string, std::string> files = {{"greet.sh", "echo bye\n"}, {"policy.yaml", k_policy}};
    for (const char* word : {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"}) {
      files[std::string("tasks/") + word + ".yaml"] = quick_task(word);
      tasks.push_back(std::string("tasks/") + word + ".yaml");
    }
    test::make_git_repository(repo, files);
  }

  std::string folder(const std::string& name) const { return (temp.path() / name).string(); }

  test::CommandResult run(const std::vector<std::string>& arguments) const {
    std::string command =
        "TMPDIR=" + test::shell_quote(temp.path().string()) + " " + test::shell_quote(test::agent_run_binary());
    for (const std::string& argument : arguments) command += " " + test::shell_quote(argument);
    return test::run_shell(command, repo);
  }
};

std::vector<std::string> with(std::vector<std::string> list, const std::vector<std::string>& more) {
  list.insert(list.end(), more.begin(), more.end());
  return list;
}

/// The member `key` of the object `json`, to change it.
Json& member(Json& json, std::string_view key) {
  for (auto& [name, value] : json.as_object()) {
    if (name == key) return value;
  }
  BOOST_FAIL("no member " << key);
  throw std::logic_error("unreachable");
}

/// `folder`/report.json with what differs between two runs of the same attempts (times,
/// durations, the command line, the shard) set to fixed values. The tasks start no processes that
/// outlive their command, so no pids differ.
std::string report_without_timings(const std::string& folder) {
  auto json = parse_json(text_of(fs::path(folder) / "report.json"));
  BOOST_REQUIRE(json.has_value());
  Json& run = member(*json, "run");
  run.set("started_at", "").set("duration_ms", 0).set("command_line", Json::array()).set("shard", nullptr);
  for (const char* group : {"tasks", "models"}) {  // the aggregates' times are the attempts' own
    for (Json& item : member(member(run, "aggregates"), group).as_array()) item.set("duration_ms", Json::object());
  }
  for (Json& attempt : member(*json, "attempts").as_array()) {
    attempt.set("started_at", "").set("durations", Json::object());
    attempt.set("system_prompt_sha256", "");  // the prompt states the date
    for (const char* list : {"tool_calls", "checks", "setup", "model_calls", "background_processes"}) {
      for (Json& item : member(attempt, list).as_array()) item.set("duration_ms", 0);
    }
    for (Json& edit : member(attempt, "edits").as_array()) {
      if (member(edit, "diagnostics").is_object()) member(edit, "diagnostics").set("duration_ms", 0);
    }
  }
  return json->dump_pretty();
}

/// `folder`/junit.xml without its time and timestamp attributes.
std::string junit_without_timings(const std::string& folder) {
  return test::run_shell("sed -E 's/ (time|timestamp)=\"[^\"]*\"//g' junit.xml", folder).output;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(batch_binary)

BOOST_AUTO_TEST_CASE(sigterm_mid_run_kills_the_running_attempt_writes_the_reports_and_exits_143) {
  RunFixture fixture;
  pid_t agent_run = fixture.start({"tasks/a-quick.yaml", "tasks/b-slow.yaml", "tasks/c-quick.yaml",
                                   "tasks/d-quick.yaml", "-j", "2", "--out", fixture.out.string()});
  fixture.wait_for_the_sleeper();
  BOOST_REQUIRE(is_running(fixture.sleeper()));
  ::kill(agent_run, SIGTERM);
  BOOST_TEST(wait_for_exit(agent_run) == 143);  // without waiting for the five minutes of sleep
  BOOST_TEST_INFO(text_of(fixture.temp.path() / "run.log"));
  Json report = fixture.report();
  BOOST_TEST(report.find("run")->find("interrupted")->as_bool());
  bool slow_reported = false;
  for (const Json& attempt : report.find("attempts")->as_array()) {
    if (attempt.get_string("task_id") != "b-slow") continue;
    slow_reported = true;
    BOOST_TEST(attempt.get_string("outcome") == "error");
    BOOST_TEST(attempt.get_string("outcome_type") == "interrupted");
  }
  BOOST_TEST(slow_reported);
  for (const auto& [attempt, count] : fixture.attempt_counts()) BOOST_TEST(count == 1, attempt);
  BOOST_TEST(!is_running(fixture.sleeper()));
  fixture.check_nothing_left_behind();
  test::check_report_folder(fixture.out);

  check_resumed_run(fixture, fixture.run({"tasks/a-quick.yaml", "tasks/b-slow.yaml", "tasks/c-quick.yaml",
                                          "tasks/d-quick.yaml", "-j", "2", "--out", fixture.out.string(), "--resume"}));
}

BOOST_AUTO_TEST_CASE(kill_9_mid_run_then_resume_reports_every_attempt_once_and_cleans_what_was_left) {
  RunFixture fixture;
  pid_t agent_run = fixture.start({"tasks/a-quick.yaml", "tasks/b-slow.yaml", "tasks/c-quick.yaml",
                                   "tasks/d-quick.yaml", "-j", "2", "--out", fixture.out.string()});
  fixture.wait_for_the_sleeper();
  ::kill(agent_run, SIGKILL);
  BOOST_TEST(wait_for_exit(agent_run) == 128 + SIGKILL);
  BOOST_TEST(is_running(fixture.sleeper()));  // what a SIGKILL leaves: the next run must clean it
  BOOST_TEST(test::run_shell("git branch --list 'agent-run/*'", fixture.repo).output != "");
  BOOST_TEST(fixture.attempt_counts().count("b-slow script 1") == 0u);

  test::CommandResult resumed =
      fixture.run({"tasks/a-quick.yaml", "tasks/b-slow.yaml", "tasks/c-quick.yaml", "tasks/d-quick.yaml", "-j", "2",
                   "--out", fixture.out.string(), "--resume"});
  BOOST_TEST(resumed.output.find("cleaned up after a killed run: ") != std::string::npos);
  BOOST_TEST(resumed.output.find("leftover processes killed") != std::string::npos);
  check_resumed_run(fixture, resumed);
}

BOOST_AUTO_TEST_CASE(sigint_exits_130_and_an_edited_task_runs_again_on_resume) {
  RunFixture fixture;
  pid_t agent_run = fixture.start({"tasks/b-slow.yaml", "--out", fixture.out.string()});
  fixture.wait_for_the_sleeper();
  ::kill(agent_run, SIGINT);
  BOOST_TEST(wait_for_exit(agent_run) == 130);
  BOOST_TEST(!is_running(fixture.sleeper()));
  test::CommandResult first =
      fixture.run({"tasks/b-slow.yaml", "tasks/a-quick.yaml", "--out", fixture.out.string(), "--resume"});
  BOOST_TEST(first.exit_code == 0, first.output);
  BOOST_TEST(first.output.find("resume: 0 of 2 attempts already done, 2 to run (1 interrupted, 0 skipped for the "
                               "run's budget, 0 finished results dropped)") !=
                 std::string::npos,
             first.output);
  test::run_shell("sed -i 's/say hello/say hello again/' tasks/a-quick.yaml", fixture.repo);
  test::CommandResult second =
      fixture.run({"tasks/b-slow.yaml", "tasks/a-quick.yaml", "--out", fixture.out.string(), "--resume"});
  BOOST_TEST(second.output.find("resume: 1 of 2 attempts already done, 1 to run (0 interrupted, 0 skipped for the "
                                "run's budget, 1 finished result dropped)\nresume: dropped a-quick #1 (script, "
                                "passed): its task file changed; removed attempts/a-quick/") != std::string::npos,
             second.output);
  BOOST_TEST(second.output.find("PASS  a-quick #1") != std::string::npos);
  BOOST_TEST(second.output.find("b-slow #") == std::string::npos);  // not run again, nor warned of
  BOOST_TEST(second.output.find("sandbox is off") == std::string::npos, second.output);
  BOOST_TEST(fixture.attempt_counts().size() == 2u);

  // Resumed with fewer tasks: the finished result of the one left out is named, and its folder goes.
  std::filesystem::path quick_folder = fixture.out / "attempts" / "a-quick";
  BOOST_REQUIRE(std::filesystem::exists(quick_folder));
  test::CommandResult third = fixture.run({"tasks/b-slow.yaml", "--out", fixture.out.string(), "--resume"});
  BOOST_TEST(third.output.find("resume: dropped a-quick #1 (script, passed): its task is not in this run; removed "
                               "attempts/a-quick/") != std::string::npos,
             third.output);
  BOOST_TEST(!std::filesystem::exists(quick_folder));  // emptied folders above it go too
  BOOST_TEST(fixture.attempt_counts().size() == 1u);
}

BOOST_AUTO_TEST_CASE(the_sandbox_off_warning_counts_only_the_attempts_a_resumed_run_will_run) {
  RunFixture fixture;
  fixture.temp.write("mark", "");  // b-slow (sandbox: off) passes at once
  const std::string warning = "warning: the sandbox is off for 1 attempt";
  test::CommandResult first = fixture.run({"tasks/b-slow.yaml", "--out", fixture.out.string()});
  BOOST_TEST(first.exit_code == 0, first.output);
  BOOST_TEST(first.output.find(warning) != std::string::npos, first.output);
  test::CommandResult resumed =
      fixture.run({"tasks/b-slow.yaml", "tasks/a-quick.yaml", "--out", fixture.out.string(), "--resume"});
  BOOST_TEST(resumed.exit_code == 0, resumed.output);
  BOOST_TEST(resumed.output.find("resume: 1 of 2 attempts already done, 1 to run") != std::string::npos,
             resumed.output);
  BOOST_TEST(resumed.output.find("PASS  a-quick #1") != std::string::npos, resumed.output);
  BOOST_TEST(resumed.output.find("sandbox is off") == std::string::npos, resumed.output);  // b-slow does not run
}

BOOST_AUTO_TEST_CASE(merged_shards_equal_an_unsharded_run_modulo_timings) {
  EightTasks fixture;
  std::vector<std::string> reversed(fixture.tasks.rbegin(), fixture.tasks.rend());  // the file order does not matter
  BOOST_REQUIRE(fixture.run(with(fixture.tasks, {"--repeat", "2", "--out", fixture.folder("whole")})).exit_code == 0);
  for (int shard = 1; shard <= 3; ++shard) {
    std::string name = "shard-" + std::to_string(shard);
    auto sharded = fixture.run(with(reversed, {"--repeat", "2", "-j", "2", "--shard", std::to_string(shard) + "/3",
                                               "--out", fixture.folder(name)}));
    BOOST_REQUIRE_MESSAGE(sharded.exit_code == 0, sharded.output);
  }
  test::CommandResult merged = fixture.run({"merge", fixture.folder("shard-1"), fixture.folder("shard-2"),
                                            fixture.folder("shard-3"), "--out", fixture.folder("merged")});
  BOOST_TEST_INFO(merged.output);
  BOOST_REQUIRE(merged.exit_code == 0);
  BOOST_TEST(merged.output.find("16 attempts: 16 passed") != std::string::npos);

  std::string whole = report_without_timings(fixture.folder("whole"));
  BOOST_TEST(whole.find("\"task_id\": \"hotel\"") != std::string::npos);
  BOOST_TEST(report_without_timings(fixture.folder("merged")) == whole);
  BOOST_TEST(junit_without_timings(fixture.folder("merged")) == junit_without_timings(fixture.folder("whole")));
  BOOST_TEST(text_of(fixture.folder("merged") + "/attempts/golf/2/patch.diff").find("+echo golf") != std::string::npos);
  for (const char* folder : {"whole", "shard-1", "shard-2", "shard-3", "merged"})
    test::check_report_folder(fixture.folder(folder));
  BOOST_TEST(text_of(fixture.folder("merged") + "/report.html").find("golf #2") != std::string::npos);
  BOOST_TEST(text_of(fixture.folder("merged") + "/summary.md").find("| golf | 2 | 2 | 0 | 0 | 0 | 100% |") !=
             std::string::npos);

  test::CommandResult overlap =
      fixture.run({"merge", fixture.folder("shard-1"), fixture.folder("whole"), "--out", fixture.folder("bad")});
  BOOST_TEST(overlap.exit_code == 2);
  BOOST_TEST(overlap.output.find("agent-run merge: overlapping runs: attempt '") != std::string::npos, overlap.output);
  BOOST_TEST(!fs::exists(fixture.folder("bad")));
}

BOOST_AUTO_TEST_CASE(a_real_report_reads_back_field_for_field) {
  RunFixture fixture;
  // A task that fills the session tools' fields too: a plan, a question, a background process and
  // a process escaped from its group (a script: the policy refuses `&` and `$!` in a bash call).
  fs::path escape = fixture.temp.write("escape.sh",
                                       "setsid sleep 1000 >/dev/null 2>&1 &\np=$!\n"
                                       "until [ \"$(cat /proc/$p/comm 2>/dev/null)\" = sleep ]; do sleep 0.01; done\n"
                                       "echo $p > " +
                                           (fixture.temp.path() / "escaped.pid").string() + "\n");
  fixture.temp.write("repo/tasks/e-session.yaml",
                     // sandbox: off: an escape in a sandbox dies with its command, and is never recorded.
                     "prompt: p\npolicy: ../policy.yaml\nsandbox: off\nanswers:\n  - otherwise: first\nscript:\n"
                     "  - call: {tool: todo_write, input: {todos: [{content: look, status: in_progress}]}}\n"
                     "  - call: {tool: ask_user, input: {question: \"Which one?\", options: [left, right]}}\n"
                     "  - call: {tool: bash, input: {command: sleep 1000, background: true}}\n"
                     "  - call: {tool: bash, input: {command: sh " +
                         escape.string() + "}}\n  - say: Done.\n");
  test::CommandResult result =
      fixture.run({"tasks/a-quick.yaml", "tasks/c-quick.yaml", "tasks/e-session.yaml", "--out", fixture.out.string()});
  BOOST_REQUIRE_MESSAGE(result.exit_code == 0, result.output);
  Json written = fixture.report();
  const Json& session = written.find("attempts")->as_array().at(2);
  BOOST_TEST(session.find("model_calls")->as_array().size() == 5u);
  BOOST_TEST(session.find("todos")->as_array().size() == 1u);
  BOOST_TEST(session.find("questions")->as_array().size() == 1u);
  BOOST_TEST(session.find("background_processes")->as_array().size() == 1u);
  BOOST_TEST(session.find("escaped_processes")->as_array().size() == 1u);
  BOOST_TEST(!session.get_string("policy_sha256").empty());
  BOOST_TEST(written.find("run")->find("price_table")->get_string("file") == "built-in");
  auto read = report_from_json(written, "report.json");
  BOOST_REQUIRE_MESSAGE(read.has_value(), (read ? std::string() : read.error().message));
  // Guards the reader (resume, merge) against fields the writers gain: it must read them all.
  BOOST_TEST(report_to_json(*read).dump_pretty() == written.dump_pretty());
}

BOOST_AUTO_TEST_CASE(resume_refuses_a_report_priced_by_another_price_table) {
  RunFixture fixture;
  test::CommandResult first = fixture.run({"tasks/a-quick.yaml", "--out", fixture.out.string()});
  BOOST_REQUIRE_MESSAGE(first.exit_code == 0, first.output);
  fs::path prices = fixture.temp.write("prices.json", R"({"version": "custom-1", "models": {}})");
  test::CommandResult resumed =
      fixture.run({"tasks/a-quick.yaml", "--out", fixture.out.string(), "--resume", "--prices", prices.string()});
  BOOST_TEST(resumed.exit_code == 2, resumed.output);
  BOOST_TEST(resumed.output.find("priced its model calls with the price table ") != std::string::npos, resumed.output);
  BOOST_TEST(resumed.output.find("this run with custom-1 (" + prices.string() + "); resume with the same --prices") !=
                 std::string::npos,
             resumed.output);
}

BOOST_AUTO_TEST_CASE(github_actions_logs_fold_each_attempt_into_a_group) {
  RunFixture fixture;
  test::CommandResult result = test::run_shell(
      "GITHUB_ACTIONS=true " + fixture.command({"tasks/a-quick.yaml", "--out", fixture.out.string()}), fixture.repo);
  BOOST_TEST(result.exit_code == 0);
  BOOST_TEST(result.output.starts_with("::group::PASS  a-quick #1  script  3 turns  "), result.output);
  BOOST_TEST(result.output.find("\n  3 turns, 2 tool calls (0 denied), ~") != std::string::npos, result.output);
  BOOST_TEST(result.output.find("\n  patch: 1 files, +1 -1: attempts/a-quick/1/patch.diff\n") != std::string::npos);
  BOOST_TEST(result.output.find("\n::endgroup::\n1 attempt: 1 passed") != std::string::npos, result.output);
  test::CommandResult quiet = fixture.run({"tasks/a-quick.yaml", "--out", fixture.out.string(), "--quiet"});
  BOOST_TEST(quiet.output.starts_with("1 attempt: 1 passed"), quiet.output);
}

BOOST_AUTO_TEST_CASE(a_batch_refactor_commits_each_passed_attempt_to_its_branch) {
  RunFixture fixture;
  test::run_shell(
      "for t in a-quick c-quick; do printf 'commit: {branch: \"refactor/{id}\"}\\n' >> tasks/$t.yaml; done "
      "&& git -c user.name=t -c user.email=t@example.invalid commit -qam commit",
      fixture.repo);
  test::CommandResult result =
      fixture.run({"tasks/a-quick.yaml", "tasks/c-quick.yaml", "-j", "2", "--out", fixture.out.string()});
  BOOST_REQUIRE_MESSAGE(result.exit_code == 0, result.output);
  BOOST_TEST(test::run_shell("git show refactor/a-quick:greet.sh", fixture.repo).output == "echo hello\n");
  BOOST_TEST(test::run_shell("git show refactor/c-quick:greet.sh", fixture.repo).output == "echo howdy\n");
  BOOST_TEST(test::run_shell("git log -1 --format=%s refactor/c-quick", fixture.repo).output == "agent-run: c-quick\n");
  Json report = fixture.report();
  BOOST_TEST(report.find("attempts")->as_array()[0].find("commit")->get_string("branch") == "refactor/a-quick");
  fixture.check_nothing_left_behind();
}

BOOST_AUTO_TEST_CASE(bad_batch_options_are_refused_before_anything_runs) {
  RunFixture fixture;
  auto refused = [&](const std::vector<std::string>& arguments, const std::string& message) {
    test::CommandResult result = fixture.run(arguments);
    BOOST_TEST(result.exit_code == 2, result.output);
    BOOST_TEST(result.output.find(message) != std::string::npos, result.output);
  };
  refused({"tasks/a-quick.yaml", "--shard", "0/4"}, "--shard needs I/N with 1 <= I <= N (for example 2/4), got '0/4'");
  refused({"tasks/a-quick.yaml", "--shard", "5/4"}, "got '5/4'");
  refused({"tasks/a-quick.yaml", "-j", "0"}, "-j needs a whole number of at least 1, got '0'");
  refused({"tasks/a-quick.yaml", "--quiet", "--verbose"}, "--quiet and --verbose exclude each other");
  refused({"tasks/a-quick.yaml", "--filter", "z*"}, "--filter 'z*' matches no task id\nagent-run: nothing ran");
  refused({"tasks/a-quick.yaml", "--model", "script", "--model", "script"}, "--model 'script' is given twice");
  refused({"merge", "somewhere"}, "merge needs --out DIR");
  refused({"merge", "nowhere", "--out", "x"},
          "agent-run merge: 'nowhere' does not exist\nagent-run merge: nothing was written");
  refused({"merge", "tasks", "--out", "x"}, "agent-run merge: 'tasks' is not a report folder: it has no report.json");
  BOOST_TEST(!fs::exists(fixture.repo / "agent-run-out"));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
