#include "report/html_report.h"

#include "base/files.h"
#include "report/report_folder.h"
#include "report/report_reader.h"
#include "report/sample_report.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <string>

namespace agent_run {
namespace {

using namespace std::string_literals;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// Patches as the report folder would give them: every attempt's is the same small diff.
std::string small_patch(const std::string&, std::size_t max_bytes) {
  std::string patch =
      "diff --git a/src/a.py b/src/a.py\n--- a/src/a.py\n+++ b/src/a.py\n@@ -1,2 +1,2 @@\n"
      "-def parse(x):\n+def load(x):\n     return x\n";
  return patch.substr(0, max_bytes);
}

std::string no_patch(const std::string&, std::size_t) { return {}; }

/// xmllint's verdict on `html` parsed as XML: the page must be well formed.
test::CommandResult parse_as_xml(const std::string& html) {
  test::TempFolder folder;
  folder.write("report.html", html);
  return test::run_shell("xmllint --noout report.html", folder.path());
}

Problem problem(const std::string& path, int line, const std::string& message) {
  return Problem{path, line, 2, "error", message, "F821", false};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(html_report)

BOOST_AUTO_TEST_CASE(the_page_is_well_formed_and_self_contained) {
  std::string html = report_to_html(test::sample_report(), small_patch);
  test::CommandResult parsed = parse_as_xml(html);
  BOOST_TEST(parsed.exit_code == 0, parsed.output);
  BOOST_TEST(html.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
  BOOST_TEST(!contains(html, "<script"));
  BOOST_TEST(!contains(html, "<link"));
  BOOST_TEST(!contains(html, "src="));
  BOOST_TEST(!contains(html, "url("));
  BOOST_TEST(!contains(html, "@import"));
  BOOST_TEST(!contains(html, "https://"));
  std::size_t http = 0;  // only the SVG namespace's name
  for (std::size_t at = html.find("http://"); at != std::string::npos; at = html.find("http://", at + 1)) {
    if (html.compare(at, 26, "http://www.w3.org/2000/svg") != 0) ++http;
  }
  BOOST_TEST(http == 0u);
}

// A link to an attempt holds from one run to the next (no position in it), names stay unique, and a
// targeted attempt is not held open by the page (it closes like any other).
BOOST_AUTO_TEST_CASE(attempt_ids_come_from_the_task_the_repeat_and_the_model_and_stay_unique) {
  RunReport report = test::sample_report();
  AttemptResult first = report.attempts.front();
  first.task_id = "Fix Bug/Ü.2";
  first.n = 3;
  report.attempts = {first, first};
  std::string html = report_to_html(report, small_patch);
  BOOST_TEST(contains(html, "<div id=\"task-fix-bug-2-3\">"), html.substr(0, 200));
  BOOST_TEST(contains(html, "<div id=\"task-fix-bug-2-3-2\">"));
  report.attempts[1].model = "openai/other-model";
  html = report_to_html(report, small_patch);
  BOOST_TEST(contains(html, "<div id=\"task-fix-bug-2-3-script\">"));
  BOOST_TEST(contains(html, "<div id=\"task-fix-bug-2-3-openai-other-model\">"));
  BOOST_TEST(!contains(html, ":target::details-content"));
}

BOOST_AUTO_TEST_CASE(it_has_light_and_dark_colours) {
  std::string html = report_to_html(test::sample_report(), small_patch);
  BOOST_TEST(contains(html, "@media (prefers-color-scheme:dark){:root{--bg:#0d1117"));
  BOOST_TEST(contains(html, "<meta name=\"color-scheme\" content=\"light dark\"/>"));
}

BOOST_AUTO_TEST_CASE(the_totals_and_what_failed_come_first_each_failure_a_link_to_its_attempt) {
  std::string html = report_to_html(test::sample_report(), small_patch);
  BOOST_TEST(contains(html, "<div class=\"tile passed\"><b>1</b><span>passed</span></div>"));
  BOOST_TEST(contains(html, "<div class=\"tile \"><b>50%</b><span>pass rate (of judged)</span></div>"));
  BOOST_TEST(contains(html,
                      "<li><a href=\"#task-fix-bug-2\">\xE2\x9C\x97 failed fix-bug #2</a> <b>check.failed</b>: "
                      "python3 -m pytest -q exited 1</li>"));
  BOOST_TEST(contains(html, "<details class=\"attempt failed m0\"><summary>"));
  BOOST_TEST(contains(html, "</summary><div id=\"task-fix-bug-2\">"));
  BOOST_TEST(html.find("id=\"failed\"") < html.find("id=\"tasks\""));
  BOOST_TEST(html.find("id=\"tasks\"") < html.find("id=\"attempts\""));
}

BOOST_AUTO_TEST_CASE(charts_are_inline_svg_per_task_and_per_model_when_there_are_several) {
  RunReport report = test::sample_report();
  std::string one_model = report_to_html(report, small_patch);
  BOOST_TEST(
      contains(one_model, "<figcaption>Pass rate per task</figcaption><svg xmlns=\"http://www.w3.org/2000/svg\""));
  BOOST_TEST(contains(one_model, "<figcaption>Cost per task</figcaption>"));
  BOOST_TEST(contains(one_model, "<figcaption>Tokens per task</figcaption>"));
  BOOST_TEST(contains(one_model, "<title>fix-bug: 50%</title>"));
  BOOST_TEST(!contains(one_model, "id=\"models\""));
  report.attempts[1].model = "openai/gpt-4o";
  std::string two_models = report_to_html(report, small_patch);
  BOOST_TEST(contains(two_models, "<figcaption>Pass rate per model</figcaption>"));
  BOOST_TEST(contains(two_models, "<title>openai/gpt-4o: 0%</title>"));
  BOOST_TEST(contains(two_models, "<label for=\"m-1\">openai/gpt-4o 1</label>"));
}

BOOST_AUTO_TEST_CASE(filters_by_outcome_and_model_work_with_css_alone) {
  std::string html = report_to_html(test::sample_report(), small_patch);
  BOOST_TEST(
      contains(html, "<input class=\"filter\" type=\"radio\" name=\"outcome\" id=\"o-all\" checked=\"checked\"/>"));
  BOOST_TEST(contains(html, "<input class=\"filter\" type=\"radio\" name=\"outcome\" id=\"o-failed\"/>"));
  BOOST_TEST(contains(html, "#o-failed:checked~.attempts>details:not(.failed){display:none}"));
  BOOST_TEST(contains(html, "#m-0:checked~.attempts>details:not(.m0){display:none}"));
  BOOST_TEST(contains(html, "<label for=\"o-failed\">failed 1</label>"));
}

BOOST_AUTO_TEST_CASE(an_attempt_shows_its_timeline_turn_by_turn) {
  RunReport report = test::sample_report();
  AttemptResult& failed = report.attempts[1];
  failed.model_calls = {ModelCallRecord{1, "turn", "req_1", "script", "tool_use", "", {}, 800, {}},
                        ModelCallRecord{2, "turn", "req_2", "script", "end_turn", "", {}, 200, {ModelTryRecord{1, 529}}}};
  failed.tool_calls.push_back(
      ToolCallRecord{2, "c2", "bash", "curl x", "denied", "rule", "no-network", "no network", 0, 0, true});
  failed.edits.back().diagnostics = EditDiagnostics{"pyflakes",
                                                    "3.0",
                                                    "linter",
                                                    "problems",
                                                    "",
                                                    {problem("src/a.py", 3, "undefined name 'x'")},
                                                    {problem("src/a.py", 3, "undefined name 'x'")},
                                                    {},
                                                    true,
                                                    40};
  std::string html = report_to_html(report, small_patch);
  BOOST_TEST(contains(
      html,
      "<li><span class=\"turn\">Turn 1</span><span class=\"time\"><span class=\"m\" style=\"width:98%\"></span>"
      "<span class=\"t\" style=\"width:1%\"></span></span>model 0.8s \xC2\xB7 tools 0.0s<ul class=\"calls\">"
      "<li>read_file <code>src/a.py</code> <span class=\"note\">0.0s</span></li></ul></li>"));
  BOOST_TEST(contains(html, "1 failed tries"));
  BOOST_TEST(contains(
      html,
      "<li class=\"denied\">\xE2\x8A\x98 bash <code>curl x</code> denied by rule <b>no-network</b>: no network</li>"));
  BOOST_TEST(contains(html,
                      "pyflakes: problems, 1 new, 0 resolved</span><ul><li class=\"problem\">src/a.py:3:2 error: "
                      "undefined name 'x' [F821] <span class=\"note\">new</span></li></ul>"));
  BOOST_TEST(
      contains(html,
               "<li class=\"check-failed\"><code>python3 -m pytest -q</code> exited 1 <span class=\"note\">0.1s</span>"
               "<pre class=\"tail\"><span>FAILED test_a.py::test_parse\n</span></pre></li>"));
}

BOOST_AUTO_TEST_CASE(each_edit_shows_what_its_result_told_the_model_and_its_during_edit_checks) {
  RunReport report = test::sample_report();
  AttemptResult& failed = report.attempts[1];
  EditRecord typo{2, "call_2", "edit_file", "route.go", 1, 1};
  typo.diagnostics = EditDiagnostics{"go test -c + go vet", "go1.19.8", "linter", "problems", "",
                                     {Problem{"regexp.go", 9, 2, "error", "undefined: parseRouteTemplat", "", true},
                                      Problem{"route.go", 186, 7, "warning", "unusedresult", "", false}},
                                     {Problem{"regexp.go", 9, 2, "error", "undefined: parseRouteTemplat", "", true}},
                                     {}, true, 900};
  typo.checks = {CheckRecord{"go vet ./...", false, 1, false, 6100, "# m\nvet: ./regexp.go:9:2: undefined: parseRouteTemplat\n"}};
  EditRecord slow{3, "call_3", "edit_file", "regexp.go", 1, 1};
  slow.diagnostics = EditDiagnostics{"gopls", "v0.11.0", "server", "timeout"};
  slow.checks = {CheckRecord{"go vet ./...", true, 0, false, 5900, ""}};
  failed.edits = {typo, slow};
  std::string html = report_to_html(report, small_patch);
  BOOST_TEST_INFO(html);
  BOOST_TEST(contains(html,
                      "<li class=\"problem\">[other file] regexp.go:9:2 error: undefined: parseRouteTemplat "
                      "<span class=\"note\">new</span></li><li class=\"problem\">route.go:186:7 warning: "
                      "unusedresult</li>"));
  BOOST_TEST(contains(html,
                      "<li class=\"check-failed\"><code>go vet ./...</code> exited 1 <span class=\"note\">6.1s</span>"
                      "<pre class=\"tail\"><span># m\nvet: ./regexp.go:9:2: undefined: parseRouteTemplat\n</span></pre>"
                      "</li>"));
  BOOST_TEST(contains(html, "gopls: no answer in time, 0 new, 0 resolved</span><ul><li class=\"check-passed\">"
                            "<code>go vet ./...</code> passed <span class=\"note\">5.9s</span></li></ul>"));
}

BOOST_AUTO_TEST_CASE(the_patch_is_a_coloured_diff_with_a_link_to_the_file) {
  std::string html = report_to_html(test::sample_report(), small_patch);
  BOOST_TEST(contains(html, "<pre class=\"diff\"><span class=\"f\">diff --git a/src/a.py b/src/a.py</span>\n"));
  BOOST_TEST(contains(html,
                      "<span class=\"h\">@@ -1,2 +1,2 @@</span>\n<span class=\"d\">-def parse(x):</span>\n"
                      "<span class=\"a\">+def load(x):</span>\n     return x\n"));
  BOOST_TEST(contains(html, "<a href=\"attempts/fix-bug/2/patch.diff\">patch.diff</a>"));
  std::string without = report_to_html(test::sample_report(), no_patch);
  BOOST_TEST(contains(without, "patch.diff</a> (not included on this page)"));
}

BOOST_AUTO_TEST_CASE(the_final_message_is_shown) {
  RunReport report = test::sample_report();
  report.attempts[0].final_message = "Renamed it.\nTests pass.";
  std::string html = report_to_html(report, small_patch);
  BOOST_TEST(contains(html, "<h3>Final message</h3><blockquote>Renamed it.\nTests pass.</blockquote>"));
}

BOOST_AUTO_TEST_CASE(hostile_text_stays_text_and_the_page_stays_well_formed) {
  RunReport report = test::sample_report();
  AttemptResult& failed = report.attempts[1];
  failed.model = "m\"><script>alert(1)</script>";
  failed.message = "]]> <!-- & \x07 \xff";
  failed.final_message = "</blockquote></details><img src=x onerror=alert(1)>";
  failed.checks.back().output_tail = "</pre><style>body{display:none}</style>";
  failed.tool_calls.push_back(
      ToolCallRecord{1, "c", "bash", "<b>&amp;</b>", "denied", "rule", "r\"1", "x<y", 0, 0, true});
  auto hostile_patch = [](const std::string&, std::size_t) { return "+<script>x</script>\n-&lt;\n"s; };
  std::string html = report_to_html(report, hostile_patch);
  test::CommandResult parsed = parse_as_xml(html);
  BOOST_TEST(parsed.exit_code == 0, parsed.output);
  BOOST_TEST(!contains(html, "<script"));
  BOOST_TEST(!contains(html, "<img"));
  BOOST_TEST(!contains(html, "<style>body"));
  BOOST_TEST(contains(html, "]]&gt; &lt;!-- &amp; #x07 \xEF\xBF\xBD"));
  BOOST_TEST(contains(html, "<span class=\"a\">+&lt;script&gt;x&lt;/script&gt;</span>"));
}

BOOST_AUTO_TEST_CASE(five_thousand_attempts_make_one_page_of_bounded_size) {
  RunReport report;
  for (int i = 0; i < 5000; ++i) {
    Outcome outcome = i % 4 == 0 ? Outcome::failed : Outcome::passed;
    AttemptResult attempt = test::sample_attempt("task-" + std::to_string(i / 5), i % 5 + 1, outcome);
    attempt.model = i % 2 ? "anthropic/claude-sonnet-4-5" : "openai/gpt-4o";
    attempt.final_message = std::string(400, 'm');
    report.attempts.push_back(std::move(attempt));
  }
  auto big_patch = [](const std::string&, std::size_t max_bytes) { return std::string(max_bytes, '+'); };
  std::string html = report_to_html(report, big_patch);
  BOOST_TEST_MESSAGE("report.html with 5000 attempts: " << html.size() << " bytes");
  BOOST_TEST(html.size() < 32u * 1024 * 1024);
  BOOST_TEST(contains(html, "(the 30 lowest of 1000)"));
  BOOST_TEST(contains(html, "and 1200 more: filter the attempts below by outcome."));
  test::CommandResult parsed = parse_as_xml(html);
  BOOST_TEST(parsed.exit_code == 0, parsed.output);
}

BOOST_AUTO_TEST_CASE(repeats_and_the_model_matrix_are_tables_on_the_page) {
  std::string html = report_to_html(test::repeated_report(), small_patch);
  BOOST_TEST(contains(html, "<h2 id=\"repeats\">Across attempts</h2>"));
  BOOST_TEST(contains(html, "<tr class=\"flaky\"><td>flip</td><td>a</td><td>5</td><td>1</td><td>80%</td>"
                            "<td>100%</td><td>0%</td><td>flaky</td>"));
  BOOST_TEST(contains(html, "<h2 id=\"matrix\">Model matrix</h2>"));
  BOOST_TEST(contains(html, "<tr><td>flip</td><td>4/5 flaky</td><td>5/5</td></tr>"));
  BOOST_TEST(contains(html, "<tr><th>Cost per pass</th><td>$0.3750</td><td>$0.2500</td></tr>"));
  BOOST_TEST(parse_as_xml(html).exit_code == 0);
}

// The report folder writes report.html a piece at a time, an attempt a piece, so that the whole page is
// never in memory (it was the largest block a soak held once report.json and junit.xml were streamed).
// The fixtures are real runs with the report.html main (9e2b047) wrote whole: the tasks/examples with
// their patches (the page reads them from the folder), and a soak's 24 attempts (written by main's
// report_to_html from the report.json, without the patches the run had removed). Not a byte may change.
BOOST_AUTO_TEST_CASE(real_runs_give_the_page_written_whole_before_to_the_byte) {
  for (const char* run : {"examples", "soak"}) {
    BOOST_TEST_CONTEXT("test/fixtures/report/" << run) {
      const std::filesystem::path folder = test::source_root() / "test/fixtures/report" / run;
      Expected<RunReport> report = read_report_file(folder / "report.json");
      BOOST_REQUIRE_MESSAGE(report.has_value(), (report ? std::string() : report.error().message));
      Expected<std::string> before = read_file(folder / "report.html");
      BOOST_REQUIRE(before.has_value());
      ReportFolder fixture(folder);
      PatchReader read_patch = [&](const std::string& path, std::size_t max_bytes) {
        return fixture.read_part(path, max_bytes);
      };
      std::string page;
      std::size_t pieces = 0;
      write_report_html(*report, read_patch, [&](std::string_view piece) {
        page += piece;
        ++pieces;
      });
      BOOST_TEST((page == *before));
      BOOST_TEST(pieces == report->attempts.size() + 4);
    }
  }
  const std::filesystem::path examples = test::source_root() / "test/fixtures/report/examples";
  BOOST_TEST(read_file(examples / "report.html")->find("class=\"diff\"") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace agent_run
