#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <string>

namespace agent_run {
namespace {

namespace fs = std::filesystem;
using test::CommandResult;
using test::run_shell;
using test::shell_quote;

// A wrong fix: the agent's edit calls a misspelt name, so pyflakes reports it and the tests fail.
const char* const k_wrong_fix = R"(description: Make total_quantity skip items with no quantity
prompt: |
  Make total_quantity skip items whose quantity is zero, and keep the tests passing.
workspace:
  repo: inventory
policy: policies/edit-and-test.yaml
limits: {turns: 10, time: 2m}
checks:
  - run: python3 -m unittest -q
script:
  - call: {tool: read_file, input: {path: inventory/stock.py}}
  - say: "Filtering out the empty items first."
    call: {tool: edit_file, input: {path: inventory/stock.py, old: "    total = 0\n", new: "    items = [item for item in items if quantitty(item)]\n    total = 0\n"}}
  - say: "Done: items with no quantity are skipped now."
)";

/// A repository holding the shipped examples, their policies and one more task that fails, run by
/// agent-run as a GitHub Actions step would run it.
struct GithubRun {
  test::TempFolder repository;
  CommandResult result;

  GithubRun() {
    fs::copy(test::source_root() / "tasks", repository.path() / "tasks", fs::copy_options::recursive);
    fs::copy(test::source_root() / "policies", repository.path() / "policies", fs::copy_options::recursive);
    repository.write("tasks/examples/skip-empty-items.yaml", k_wrong_fix);
    repository.write("summary.md", "");
    repository.write("output", "");
    std::string environment = "GITHUB_ACTIONS=true GITHUB_WORKSPACE=" + shell_quote(repository.path().string()) +
                              " GITHUB_STEP_SUMMARY=summary.md GITHUB_OUTPUT=output";
    result = run_shell("env " + environment + " " + shell_quote(test::agent_run_binary()) + " tasks/examples/*.yaml --out out",
                       repository.path());
  }
  fs::path out() const { return repository.path() / "out"; }
};

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string read_bytes(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// Headless Chromium (Debian's, from ci/install-test-tools.sh) on `page` through ci/screenshot-report.sh.
CommandResult screenshot(const fs::path& page, const fs::path& png, const std::string& options) {
  return run_shell(shell_quote((test::source_root() / "ci/screenshot-report.sh").string()) + " " +
                       shell_quote(page.string()) + " " + shell_quote(png.string()) + " " + options,
                   page.parent_path());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(github_step_binary)

BOOST_AUTO_TEST_CASE(a_failed_attempt_is_annotated_summarised_and_counted_in_the_outputs) {
  GithubRun run;
  BOOST_TEST_INFO(run.result.output);
  BOOST_TEST(run.result.exit_code == 1);
  BOOST_TEST(contains(run.result.output,
                      "::error file=tasks/examples/skip-empty-items.yaml,title=agent-run%3A skip-empty-items #1%3A "
                      "check `python3 -m unittest -q` exited 1::"));
  BOOST_TEST(contains(run.result.output,
                      "::error file=tasks/examples/inventory/inventory/stock.py,line=5,col=40,title=agent-run%3A left "
                      "behind by skip-empty-items #1::undefined name 'quantitty'\n"));
  std::string summary = run.repository.read("summary.md");
  BOOST_TEST(summary.starts_with("## \xE2\x9D\x8C agent-run: 3 of 4 attempts passed, 1 failed\n"));
  BOOST_TEST(contains(summary, "- **inventory/stock.py:5:40** error: undefined name 'quantitty'"));
  BOOST_TEST(summary == run.repository.read("out/summary.md"));
  std::string output = run.repository.read("output");
  BOOST_TEST(
      contains(output, "outcome=failed\nattempts=4\npassed=3\nfailed=1\nerrors=0\nskipped=0\npass-rate=0.7500\n"));
  test::check_report_folder(run.out());
}

BOOST_AUTO_TEST_CASE(report_html_renders_in_headless_chromium_light_dark_and_opened_at_the_failure) {
  GithubRun run;
  BOOST_REQUIRE(fs::exists(run.out() / "report.html"));
  std::string html = run.repository.read("out/report.html");
  BOOST_TEST(!contains(html, "<script"));  // so what Chromium shows is what a browser without JavaScript shows
  BOOST_TEST(contains(html, "<li><a href=\"#task-skip-empty-items-1\">\xE2\x9C\x97 failed skip-empty-items #1</a> "
                            "<b>check.failed</b>"));
  // Kept in the build folder for a person to look at (docs/developing.md).
  fs::path shots = fs::path(test::agent_run_binary()).parent_path() / "test";
  struct Shot {
    const char* file;
    const char* options;
  };
  for (Shot shot : {Shot{"report-screenshot.png", ""}, Shot{"report-screenshot-dark.png", "--dark"},
                    Shot{"report-screenshot-failure.png", "--fragment=task-skip-empty-items-1"}}) {
    fs::path png = shots / shot.file;
    fs::remove(png);
    CommandResult taken = screenshot(run.out() / "report.html", png, shot.options);
    BOOST_TEST(taken.exit_code == 0,
               shot.file << ": " << taken.output << " (Debian's chromium is installed by ci/install-test-tools.sh)");
    std::string bytes = read_bytes(png);
    BOOST_TEST(bytes.starts_with("\x89PNG\r\n\x1a\n"), shot.file);
    BOOST_TEST(bytes.size() > 20000u, shot.file << " has only " << bytes.size() << " bytes");
  }
  BOOST_TEST(read_bytes(shots / "report-screenshot.png") != read_bytes(shots / "report-screenshot-dark.png"));
  // Opened at the failure's link, the browser opens that attempt alone (an open section, which closes
  // as any other does); opened plainly, none.
  auto open_sections = [&](const std::string& options) {
    CommandResult dom = screenshot(run.out() / "report.html", "-", options);
    BOOST_TEST(dom.exit_code == 0, dom.output);
    std::vector<std::string> opened;
    for (std::size_t at = dom.output.find("<details class=\"attempt"); at != std::string::npos;
         at = dom.output.find("<details class=\"attempt", at + 1)) {
      const std::string tag = dom.output.substr(at, dom.output.find('>', at) - at);
      if (tag.find(" open=") == std::string::npos) continue;
      const std::size_t id = dom.output.find("<div id=\"", at);
      opened.push_back(dom.output.substr(id + 9, dom.output.find('"', id + 9) - id - 9));
    }
    return opened;
  };
  BOOST_TEST(open_sections("--fragment=task-skip-empty-items-1") == std::vector<std::string>{"task-skip-empty-items-1"},
             boost::test_tools::per_element());
  BOOST_TEST(open_sections("").empty());
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
