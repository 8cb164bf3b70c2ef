// Issue 27 case 9: what agent-run prints in a GitHub Actions log must never carry a workflow
// command that an agent, a check or a tool wrote. The log is read here by the runner's own rules
// (actions/runner, src/Runner.Common/ActionCommand.cs and Runner.Worker/ActionCommandManager.cs):
// a line ends at LF, CR or CRLF; `::name args::data` is a command when the line starts with it
// after TrimStart; otherwise the legacy `##[name args]data` is one wherever it is in the line; the
// name must be a registered command. A failed check's last line and a denied call's input carry
// the payloads; agent-run runs as in a workflow (GITHUB_ACTIONS=true), with text progress and
// with stream-json.
#include "security/security_fixture.h"

#include "base/files.h"
#include "exec/process.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <set>

namespace agent_run {
namespace {

namespace fs = std::filesystem;

/// A workflow command as the runner reads it from one line.
struct RunnerCommand {
  std::string name;  // lower case
  std::string data;
  bool legacy = false;  // `##[...]`
  std::string line;
};

const std::set<std::string>& registered_commands() {
  static const std::set<std::string> k_names = {"set-env",     "set-output", "save-state", "add-mask", "add-path",
                                                "add-matcher", "remove-matcher", "debug",  "warning",  "error",
                                                "notice",      "group",      "endgroup",   "echo",     "stop-commands"};
  return k_names;
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

/// .NET's TrimStart: char.IsWhiteSpace, over UTF-8 (ASCII 9-13 and space, and the Unicode spaces).
std::string_view trim_start(std::string_view line) {
  static const std::string_view k_wide[] = {"\xC2\x85",     "\xC2\xA0",     "\xE1\x9A\x80", "\xE2\x80\xA8",
                                            "\xE2\x80\xA9", "\xE2\x80\xAF", "\xE2\x81\x9F", "\xE3\x80\x80"};
  for (bool trimmed = true; trimmed && !line.empty();) {
    trimmed = false;
    const auto c = static_cast<unsigned char>(line.front());
    if (c == ' ' || (c >= 9 && c <= 13)) {
      line.remove_prefix(1);
      trimmed = true;
    } else if (line.size() >= 3 && line.substr(0, 2) == "\xE2\x80" && static_cast<unsigned char>(line[2]) <= 0x8A) {
      line.remove_prefix(3);  // U+2000 to U+200A
      trimmed = true;
    } else {
      for (std::string_view space : k_wide) {
        if (line.starts_with(space)) {
          line.remove_prefix(space.size());
          trimmed = true;
          break;
        }
      }
    }
  }
  return line;
}

/// The command `line` carries for the runner, if any (TryParseV2, then TryParse).
std::optional<RunnerCommand> runner_command(std::string_view line) {
  std::string_view trimmed = trim_start(line);
  if (trimmed.starts_with("::")) {
    std::size_t end = trimmed.find("::", 2);
    if (end != std::string_view::npos) {
      std::string_view info = trimmed.substr(2, end - 2);
      std::string name = lower(std::string(info.substr(0, info.find(' '))));
      if (registered_commands().count(name)) {
        return RunnerCommand{name, std::string(trimmed.substr(end + 2)), false, std::string(line)};
      }
    }
  }
  std::size_t prefix = line.find("##[");
  if (prefix == std::string_view::npos) return std::nullopt;
  std::size_t close = line.find(']', prefix);
  if (close == std::string_view::npos) return std::nullopt;
  std::string_view info = line.substr(prefix + 3, close - prefix - 3);
  std::string name = lower(std::string(info.substr(0, info.find(' '))));
  if (!registered_commands().count(name)) return std::nullopt;
  return RunnerCommand{name, std::string(line.substr(close + 1)), true, std::string(line)};
}

/// Every command the runner would read in `log`, its lines ended at LF, CR or CRLF.
std::vector<RunnerCommand> runner_commands(std::string_view log) {
  std::vector<RunnerCommand> commands;
  std::size_t start = 0;
  while (start <= log.size()) {
    std::size_t end = log.find_first_of("\r\n", start);
    std::string_view line = log.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (auto command = runner_command(line)) commands.push_back(std::move(*command));
    if (end == std::string_view::npos) break;
    start = end + (log.compare(end, 2, "\r\n") == 0 ? 2 : 1);
  }
  return commands;
}

/// The check's script: its last line carries a legacy command mid-line, then two behind bare CRs.
constexpr const char* k_check_script =
    "printf 'first line\\n'\n"
    "printf 'ok ##[set-output name=x]PWNED-legacy\\r::add-mask::PWNED-mask\\r::error::PWNED-error\\n'\n"
    "exit 1\n";

/// The denied call's input: a legacy add-path mid-line, and a stop-commands behind a CR.
const std::string k_denied_command = "echo ##[add-path]PWNED-path\r::stop-commands::PWNED-stop";

std::string task_yaml(test::SecurityFixture& scene) {
  const fs::path policy = scene.root() / "deny-bash.yaml";
  BOOST_REQUIRE(write_file_atomically(policy,
                                      "version: 1\nunmatched: allow\nrules:\n  - id: no-shell\n    deny: [bash]\n"
                                      "    message: no shell\n")
                    .has_value());
  BOOST_REQUIRE(write_file_atomically(scene.repository() / "check.sh", k_check_script).has_value());
  return "prompt: p\nmodel: script\npolicy: " + policy.string() + "\n" + scene.workspace_key("in-place") +
         "tools: [bash]\nchecks:\n  - run: sh check.sh\nscript:\n  - call: " +
         test::bash_call(k_denied_command).dump() + "\n  - say: Done.\n";
}

/// stdout and stderr of `agent-run run TASK ARGS` as a GitHub Actions step runs it.
std::string run_in_a_workflow(test::SecurityFixture& scene, const std::string& id, const std::vector<std::string>& args) {
  const fs::path task = scene.root() / "tasks" / (id + ".yaml");
  fs::create_directories(task.parent_path());
  BOOST_REQUIRE(write_file_atomically(task, task_yaml(scene)).has_value());
  std::string line = "exec";
  std::vector<std::string> argv = {test::agent_run_binary(), "run", task.string(), "--out",
                                   (scene.root() / ("out-" + id)).string(), "--no-diagnostics", "--sandbox", "off"};
  argv.insert(argv.end(), args.begin(), args.end());
  for (const std::string& word : argv) line += " " + test::shell_quote(word);
  ProcessSpec spec = shell_command(line + " < /dev/null 2>&1", scene.root(), std::chrono::minutes(4));
  spec.environment = scene.environment();
  spec.environment->push_back("GITHUB_ACTIONS=true");
  spec.output_head_bytes = spec.output_tail_bytes = 8 << 20;
  auto result = run_process(spec);
  BOOST_REQUIRE(result.has_value());
  return result->output;
}

/// BOOST_TEST that `log` carries no command but agent-run's own (groups and annotations), and no
/// annotation whose message is a payload's.
void check_no_foreign_command(const std::string& log, const std::string& how) {
  for (const RunnerCommand& command : runner_commands(log)) {
    BOOST_TEST(!command.legacy, how << ": a legacy command '" << command.name << "' in: " << command.line);
    static const std::set<std::string> k_own = {"group", "endgroup", "error", "warning", "notice"};
    BOOST_TEST(k_own.count(command.name) == 1u, how << ": a '" << command.name << "' command in: " << command.line);
    BOOST_TEST(!command.data.starts_with("PWNED"), how << ": an agent-made annotation in: " << command.line);
  }
}

BOOST_AUTO_TEST_SUITE(workflow_commands_in_the_log)

BOOST_AUTO_TEST_CASE(the_payloads_are_commands_for_the_runner) {
  // The positive control: the check's own output and the call's input, printed as they are, carry
  // the commands; so does each rule of the parser.
  test::TempFolder folder;
  folder.write("check.sh", k_check_script);
  test::CommandResult printed = test::run_shell("sh check.sh", folder.path());
  std::set<std::string> names;
  for (const RunnerCommand& command : runner_commands(printed.output + k_denied_command + "\n")) {
    names.insert(command.name + (command.legacy ? " (legacy)" : ""));
  }
  BOOST_TEST((names == std::set<std::string>{"add-mask", "set-output (legacy)", "error", "stop-commands",
                                              "add-path (legacy)"}));
  BOOST_TEST(runner_commands("  \t::warning::w\r\n").size() == 1u);             // after leading whitespace
  BOOST_TEST(runner_commands("\xC2\xA0::warning::w").size() == 1u);             // and a no-break space
  BOOST_TEST(runner_commands("x ::warning::w").empty());                        // not mid-line
  BOOST_TEST(runner_commands("x ##[warning]w").size() == 1u);                   // but the legacy form is
  BOOST_TEST(runner_commands("x ## [warning]w ##\\u005b: :warning::w").empty());  // what agent-run prints instead
}

BOOST_AUTO_TEST_CASE(console_progress_prints_no_command_the_agent_or_a_check_wrote) {
  test::SecurityFixture scene;
  const std::string log = run_in_a_workflow(scene, "progress", {"--verbose"});
  BOOST_TEST_INFO(log);
  BOOST_TEST(log.find("::group::") != std::string::npos);              // the GitHub style, groups and details
  BOOST_TEST(log.find("PWNED-mask") != std::string::npos);             // the check's last line is shown
  BOOST_TEST(log.find("PWNED-stop") != std::string::npos);             // and the denied call's input
  check_no_foreign_command(log, "text progress");
}

BOOST_AUTO_TEST_CASE(stream_json_prints_no_command_the_agent_or_a_check_wrote) {
  test::SecurityFixture scene;
  const std::string log = run_in_a_workflow(scene, "stream", {"--output-format", "stream-json", "--verbose"});
  BOOST_TEST_INFO(log);
  BOOST_TEST(log.find("PWNED-path") != std::string::npos);
  check_no_foreign_command(log, "stream-json");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace agent_run
