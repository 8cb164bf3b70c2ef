#include "diagnostics/json_rpc.h"
#include "diagnostics/languages.h"
#include "diagnostics/linters.h"
#include "diagnostics/model_text.h"
#include "diagnostics/problems.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;
using namespace std::chrono_literals;

namespace {

Problem problem(const std::string& path, int line, const std::string& severity, bool other_file = false) {
  return Problem{path, line, 1, severity, "message " + std::to_string(line), "", other_file};
}

Json lsp(const std::string& text) { return parse_json(text).value(); }

}  // namespace

BOOST_AUTO_TEST_SUITE(diagnostics_formats)

BOOST_AUTO_TEST_CASE(json_rpc_messages_are_framed_and_split_across_reads) {
  Json message = Json::object().set("jsonrpc", "2.0").set("id", 1).set("result", "héllo");
  std::string framed = frame_json_rpc(message) + frame_json_rpc(Json::object().set("method", "x"));
  BOOST_TEST(framed.rfind("Content-Length: 42\r\n\r\n{\"jsonrpc\"", 0) == 0u, framed);
  JsonRpcReader reader;
  reader.append(framed.substr(0, 10));
  BOOST_TEST(!reader.next().has_value());
  reader.append(framed.substr(10));
  auto first = reader.next();
  BOOST_REQUIRE(first && *first);
  BOOST_TEST((**first).dump() == message.dump());
  auto second = reader.next();
  BOOST_REQUIRE(second && *second);
  BOOST_TEST((*second)->get_string("method") == "x");
  BOOST_TEST(!reader.next().has_value());
}

BOOST_AUTO_TEST_CASE(json_rpc_garbage_is_an_error) {
  JsonRpcReader no_length;
  no_length.append("Usage: not a server\r\n\r\n");
  auto garbage = no_length.next();
  BOOST_REQUIRE(garbage.has_value());
  BOOST_TEST(garbage->error().message == "a JSON-RPC header without Content-Length");
  JsonRpcReader bad_body;
  bad_body.append("Content-Length: 3\r\n\r\n{x}");
  auto bad = bad_body.next();
  BOOST_REQUIRE(bad.has_value());
  BOOST_TEST(!bad->has_value());
}

BOOST_AUTO_TEST_CASE(lsp_diagnostics_become_problems) {
  // pyright: multi-line message with NBSP indentation; a UTF-16 column after a non-ASCII character.
  Json pyright = lsp(R"({"range":{"start":{"line":1,"character":6}},"severity":1,"code":"reportAssignmentType",)"
                     R"("source":"Pyright","message":"Type is wrong\n\u00a0\u00a0\"str\" is not \"int\""})");
  auto converted = problem_from_lsp(pyright, "a.py", std::string("x\nnaïve = 1\n"), false);
  BOOST_REQUIRE(converted.has_value());
  BOOST_TEST(converted->line == 2);
  BOOST_TEST(converted->column == 8);  // 'ï' is two bytes, one UTF-16 unit
  BOOST_TEST(converted->message == "Type is wrong\n\"str\" is not \"int\"");
  BOOST_TEST(converted->code == "reportAssignmentType");
  // gopls analyzer: no code, the source names it; tsls: a numeric code; hints are dropped.
  auto vet = problem_from_lsp(
      lsp(R"({"range":{"start":{"line":0,"character":0}},"severity":2,"source":"printf","message":"m"})"), "m.go",
      std::nullopt, true);
  BOOST_TEST(vet->code == "printf");
  BOOST_TEST(vet->severity == "warning");
  BOOST_TEST(vet->other_file);
  BOOST_TEST(
      problem_from_lsp(lsp(R"({"range":{},"severity":1,"code":2322,"message":"m"})"), "a.ts", std::nullopt, false)
          ->code == "2322");
  BOOST_TEST(!problem_from_lsp(lsp(R"({"range":{},"severity":4,"message":"unused"})"), "a.ts", std::nullopt, false));
}

BOOST_AUTO_TEST_CASE(comparison_ignores_positions_and_counts_duplicates) {
  std::vector<Problem> before = {problem("a.py", 3, "error"), problem("a.py", 3, "error")};
  std::vector<Problem> after = {problem("a.py", 3, "error"), problem("a.py", 9, "warning")};
  after[0].line = 5;  // moved down by an edit above it: still the same problem
  BOOST_TEST(problems_not_in(after, before).size() == 1u);
  BOOST_TEST(problems_not_in(after, before).front().severity == "warning");
  BOOST_TEST(problems_not_in(before, after).size() == 1u);
}

BOOST_AUTO_TEST_CASE(the_model_sees_ten_problems_errors_first_and_a_count_of_the_rest) {
  EditDiagnostics diagnostics;
  diagnostics.checker = "gopls";
  diagnostics.status = "problems";
  for (int line = 1; line <= 12; ++line)
    diagnostics.problems.push_back(problem("a.go", line, line % 3 ? "warning" : "error"));
  diagnostics.problems.push_back(problem("b/c.go", 4, "error", true));
  std::string text = diagnostics_text(diagnostics, 2s);
  BOOST_TEST(text ==
             "\ndiagnostics (gopls): 13 problems (1 in other files)\n"
             "  a.go:3:1: error: message 3\n"
             "  a.go:6:1: error: message 6\n"
             "  a.go:9:1: error: message 9\n"
             "  a.go:12:1: error: message 12\n"
             "  [other file] b/c.go:4:1: error: message 4\n"
             "  a.go:1:1: warning: message 1\n"
             "  a.go:2:1: warning: message 2\n"
             "  a.go:4:1: warning: message 4\n"
             "  a.go:5:1: warning: message 5\n"
             "  a.go:7:1: warning: message 7\n"
             "  ... 3 more not shown (0 errors, 3 warnings)\n");
}

BOOST_AUTO_TEST_CASE(clean_unavailable_and_abandoned_checks_read_differently) {
  EditDiagnostics clean{"pyflakes", "2.5.0", "linter", "clean"};
  BOOST_TEST(diagnostics_text(clean, 2s).empty());
  EditDiagnostics unavailable;
  unavailable.status = "unavailable";
  BOOST_TEST(diagnostics_text(unavailable, 2s).empty());
  EditDiagnostics timeout{"tsc", "Version 5.9.3", "linter", "timeout"};
  BOOST_TEST(diagnostics_text(timeout, 2s) == "\ndiagnostics (tsc): no answer within 2s; check abandoned\n");
}

BOOST_AUTO_TEST_CASE(go_vet_json_findings_are_warnings_and_type_errors_in_every_form_are_errors) {
  // Go 1.19's go vet -json, as printed on gorilla/mux after a rename: vet's own type check
  // (`vet: `), the compiler's lines when the package's test variant does not build (no prefix),
  // and an analyzer's findings in JSON.
  auto go = parse_linter_output(LinterFormat::go_vet,
                                "# example.com/m\n"
                                "vet: ./main.go:6:14: cannot use x\n"
                                "# github.com/gorilla/mux [github.com/gorilla/mux.test]\n"
                                "./mux_test.go:2650:10: undefined: newRouteRegexp\n"
                                "# example.com/m/sub\n"
                                "{\n"
                                "\t\"example.com/m/sub\": {\n"
                                "\t\t\"printf\": [\n"
                                "\t\t\t{\n"
                                "\t\t\t\t\"posn\": \"/p/sub/x.go:3:2\",\n"
                                "\t\t\t\t\"message\": \"fmt.Printf format %d has arg \\\"x\\\" of wrong type string\"\n"
                                "\t\t\t}\n"
                                "\t\t]\n"
                                "\t}\n"
                                "}\n",
                                2, "/p", "/p/main.go");
  BOOST_REQUIRE(go.size() == 3u);
  BOOST_TEST(go[0].path == "/p/main.go");
  BOOST_TEST(go[0].severity == "error");
  BOOST_TEST(go[1].path == "/p/mux_test.go");
  BOOST_TEST(go[1].line == 2650);
  BOOST_TEST(go[1].column == 10);
  BOOST_TEST(go[1].severity == "error");  // the compiler's, not a vet finding
  BOOST_TEST(go[1].message == "undefined: newRouteRegexp");
  BOOST_TEST(go[2].path == "/p/sub/x.go");
  BOOST_TEST(go[2].line == 3);
  BOOST_TEST(go[2].severity == "warning");  // a vet finding, not a type error
  BOOST_TEST(go[2].code == "printf");
  BOOST_TEST(go[2].message == "fmt.Printf format %d has arg \"x\" of wrong type string");
}

BOOST_AUTO_TEST_CASE(linter_outputs_are_read) {
  auto gcc = parse_linter_output(LinterFormat::gcc,
                                 "a.cpp: In function 'int main()':\na.cpp:7:16: error: cannot convert [-Wx]\n"
                                 "a.cpp:7:16: note: see here\n",
                                 1, "/p", "/p/a.cpp");
  BOOST_REQUIRE(gcc.size() == 1u);
  BOOST_TEST(gcc[0].message == "cannot convert\nsee here");
  BOOST_TEST(gcc[0].code == "-Wx");
  auto tsc = parse_linter_output(LinterFormat::tsc, "a.ts(5,7): error TS2322: Type 'x'.\n  Chained detail.\n", 1, "/p",
                                 "/p/a.ts");
  BOOST_REQUIRE(tsc.size() == 1u);
  BOOST_TEST(tsc[0].message == "Type 'x'.\nChained detail.");
  BOOST_TEST(tsc[0].code == "TS2322");
  auto unreadable =
      parse_linter_output(LinterFormat::pyflakes, "Traceback (most recent call last):\n  boom\n", 1, "/p", "/p/a.py");
  BOOST_REQUIRE(unreadable.size() == 1u);
  BOOST_TEST(unreadable[0].line == 0);
  BOOST_TEST(unreadable[0].message == "Traceback (most recent call last):\n  boom");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(project_roots)

BOOST_AUTO_TEST_CASE(the_root_is_the_nearest_marker_inside_the_workspace) {
  agent_run::test::TempFolder folder;
  std::filesystem::path workspace = folder.path() / "ws";
  folder.write("go.mod", "module outside\n");  // above the workspace: never used
  folder.write("ws/svc/go.mod", "module svc\n");
  folder.write("ws/svc/internal/x.go", "package internal\n");
  folder.write("ws/lib/a.py", "");
  BOOST_TEST(project_root(Language::go, workspace / "svc/internal/x.go", workspace) == workspace / "svc");
  BOOST_TEST(project_root(Language::go, workspace / "lib/y.go", workspace) == workspace);
  BOOST_TEST(project_root(Language::python, workspace / "lib/a.py", workspace) == workspace);
  BOOST_TEST((language_of("run", "#!/usr/bin/env bash\necho\n") == Language::shell));
  BOOST_TEST((language_of("notes.txt", "") == Language::none));
}

BOOST_AUTO_TEST_SUITE_END()
