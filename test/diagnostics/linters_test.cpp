#include "diagnostics/model_text.h"
#include "diagnostics_fixture.h"

#include <boost/test/unit_test.hpp>

#include <algorithm>

using namespace agent_run;
using namespace agent_run::test;
using namespace std::chrono_literals;

// Each case puts only the linter on PATH (no language server), so the fallback is what runs.
BOOST_AUTO_TEST_SUITE(linter_fallbacks)

BOOST_AUTO_TEST_CASE(go_build_and_vet_report_type_errors_vet_findings_and_broken_callers) {
  ToolShelf shelf({"go"});
  TempFolder workspace;
  workspace.write("go.mod", "module example.com/m\n\ngo 1.19\n");
  workspace.write("helper.go", "package main\n\nfunc Helper() int { return 1 }\n");
  workspace.write("main.go", "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(Helper())\n}\n");
  EditChecker checker(generous_budget());
  EditRunner edits{checker, workspace, shelf.environment()};

  EditDiagnostics broken = edits.write(
      "main.go",
      "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tvar x int = \"hello\"\n\tfmt.Println(Helper(), x)\n}\n");
  BOOST_TEST(broken.checker == "go test -c + go vet");
  BOOST_TEST(broken.checker_kind == "linter");
  BOOST_TEST(broken.checker_version.find("go version go1.") == 0u, broken.checker_version);
  BOOST_TEST(has_problem(broken.problems, "main.go", 6, "cannot use \"hello\" (untyped string constant) as int value"),
             describe(broken));
  BOOST_TEST(broken.compared);  // go test -c -overlay checked the content before the edit
  BOOST_TEST(has_problem(broken.introduced, "main.go", 6, "cannot use \"hello\""), describe(broken));
  BOOST_TEST(diagnostics_text(broken, 2s)
                     .find("diagnostics (go test -c + go vet): 1 problem\n  main.go:6:14: error: cannot use") !=
                 std::string::npos,
             diagnostics_text(broken, 2s));

  EditDiagnostics vetted = edits.write(
      "main.go",
      "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Printf(\"%d\\n\", \"s\")\n\tfmt.Println(Helper())\n}\n");
  BOOST_TEST(has_problem(vetted.problems, "main.go", 6, "fmt.Printf format %d has arg \"s\" of wrong type string"),
             describe(vetted));
  BOOST_TEST(vetted.problems.front().severity == "warning");  // the build is clean; go vet finds this

  EditDiagnostics fixed =
      edits.write("main.go", "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(Helper())\n}\n");
  BOOST_TEST(fixed.status == "clean", describe(fixed));
  BOOST_TEST(diagnostics_text(fixed, 2s).empty());
  BOOST_TEST(fixed.resolved.size() == 1u, describe(fixed));

  EditDiagnostics renamed = edits.write("helper.go", "package main\n\nfunc Assist() int { return 1 }\n");
  BOOST_TEST(has_problem(renamed.problems, "main.go", 6, "undefined: Helper", true), describe(renamed));
  BOOST_TEST(has_problem(renamed.introduced, "main.go", 6, "Helper", true), describe(renamed));
  BOOST_TEST(
      diagnostics_text(renamed, 2s).find("[other file] main.go:6:14: error: undefined: Helper") != std::string::npos,
      diagnostics_text(renamed, 2s));

  // A new file in the package: the caller broken before is not this edit's doing.
  EditDiagnostics created = edits.write("extra.go", "package main\n\nfunc Extra() int { return 2 }\n");
  BOOST_TEST(created.compared);
  BOOST_TEST(created.status == "clean", describe(created));
  BOOST_TEST(created.introduced.empty(), describe(created));
}

BOOST_AUTO_TEST_CASE(a_rename_reports_the_callers_in_the_packages_test_files_each_one) {
  ToolShelf shelf({"go"});
  TempFolder workspace;
  workspace.write("go.mod", "module example.com/mux\n\ngo 1.19\n");
  workspace.write("regexp.go", "package mux\n\nfunc newRouteRegexp(s string) int { return len(s) }\n");
  workspace.write("route.go", "package mux\n\nfunc route() int { return newRouteRegexp(\"a\") }\n");
  workspace.write("regexp_test.go", "package mux\n\nimport \"testing\"\n\n"
                                    "func TestA(t *testing.T) { _ = newRouteRegexp(\"b\") }\n");
  workspace.write("mux_test.go", "package mux\n\nimport \"testing\"\n\n"
                                 "func TestB(t *testing.T) { _ = newRouteRegexp(\"c\") }\n");
  EditChecker checker(generous_budget());
  EditRunner edits{checker, workspace, shelf.environment()};
  EditDiagnostics renamed =
      edits.write("regexp.go", "package mux\n\nfunc parseRouteTemplate(s string) int { return len(s) }\n");
  // go build reads no test file and go vet stops at the first type error: only route.go was reported.
  BOOST_TEST(has_problem(renamed.introduced, "route.go", 3, "undefined: newRouteRegexp", true), describe(renamed));
  BOOST_TEST(has_problem(renamed.introduced, "regexp_test.go", 5, "undefined: newRouteRegexp", true),
             describe(renamed));
  BOOST_TEST(has_problem(renamed.introduced, "mux_test.go", 5, "undefined: newRouteRegexp", true), describe(renamed));
  BOOST_TEST(renamed.introduced.size() == 3u, describe(renamed));
  for (const Problem& problem : renamed.problems) BOOST_TEST(problem.severity == "error", describe(renamed));
  EditDiagnostics fixed = edits.write("route.go", "package mux\n\nfunc route() int { return parseRouteTemplate(\"a\") }\n");
  BOOST_TEST(fixed.resolved.size() == 1u, describe(fixed));  // the test files' callers are not this edit's
  BOOST_TEST(fixed.introduced.empty(), describe(fixed));
}

BOOST_AUTO_TEST_CASE(go_build_counts_every_broken_caller_not_the_compilers_first_ten) {
  ToolShelf shelf({"go"});
  TempFolder workspace;
  workspace.write("go.mod", "module example.com/m\n\ngo 1.19\n");
  workspace.write("helper.go", "package main\n\nfunc Helper() int { return 1 }\n");
  std::string callers = "package main\n\nfunc main() {\n";
  for (int i = 0; i < 12; ++i) callers += "\t_ = Helper()\n";
  workspace.write("main.go", callers + "}\n");
  EditChecker checker(generous_budget());
  EditRunner edits{checker, workspace, shelf.environment()};
  EditDiagnostics renamed = edits.write("helper.go", "package main\n\nfunc Assist() int { return 1 }\n");
  // go build alone stops at ten errors ("too many errors"); -gcflags=-e reports all twelve.
  BOOST_TEST(renamed.problems.size() == 12u, describe(renamed));
  BOOST_TEST(renamed.introduced.size() == 12u, describe(renamed));
  BOOST_TEST(has_problem(renamed.problems, "main.go", 15, "undefined: Helper", true), describe(renamed));
}

BOOST_AUTO_TEST_CASE(pyflakes_reports_undefined_names_and_nothing_for_clean_edits) {
  ToolShelf shelf({"pyflakes3"});
  TempFolder workspace;
  workspace.write("app.py", "import os\n\nprint(os.getcwd())\n");
  EditChecker checker(generous_budget());
  EditRunner edits{checker, workspace, shelf.environment()};

  EditDiagnostics clean = edits.write("app.py", "import os\n\nprint(os.getcwd(), 1)\n");
  BOOST_TEST(clean.checker == "pyflakes");
  BOOST_TEST(clean.status == "clean", describe(clean));
  BOOST_TEST(diagnostics_text(clean, 2s).empty());

  EditDiagnostics broken = edits.write("app.py", "import os\n\nprint(os.getcwd(), undefined_name)\n");
  BOOST_TEST(has_problem(broken.problems, "app.py", 3, "undefined name 'undefined_name'"), describe(broken));
  BOOST_TEST(broken.problems.front().severity == "error");
  BOOST_TEST(broken.introduced.size() == 1u, describe(broken));
  BOOST_TEST(diagnostics_text(broken, 2s) ==
             "\ndiagnostics (pyflakes): 1 problem\n  app.py:3:20: error: undefined name 'undefined_name'\n");
}

BOOST_AUTO_TEST_CASE(shellcheck_reports_errors_with_their_codes) {
  ToolShelf shelf({"shellcheck"});
  TempFolder workspace;
  EditChecker checker(generous_budget());
  EditRunner edits{checker, workspace, shelf.environment()};

  EditDiagnostics created = edits.write("run.sh", "#!/bin/sh\necho \"hello\"\n");
  BOOST_TEST(created.checker == "shellcheck");
  BOOST_TEST(created.status == "clean", describe(created));

  EditDiagnostics broken = edits.write("run.sh", "#!/bin/sh\nif true; then\n  echo \"hello\"\n");
  BOOST_TEST(broken.status == "problems", describe(broken));
  BOOST_TEST(has_problem(broken.problems, "run.sh", 2, "Couldn't find 'fi' for this 'if'."), describe(broken));
  BOOST_TEST(diagnostics_text(broken, 2s).find("run.sh:2:1: error: Couldn't find 'fi' for this 'if'. [SC1046]") !=
                 std::string::npos,
             diagnostics_text(broken, 2s));
}

BOOST_AUTO_TEST_CASE(gxx_syntax_only_reports_errors_in_plain_ascii) {
  ToolShelf shelf({"g++"});
  TempFolder workspace;
  workspace.write("main.cpp", "#include <string>\n\nint main() {\n  return 0;\n}\n");
  EditChecker checker(generous_budget());
  EditRunner edits{checker, workspace, shelf.environment()};

  EditDiagnostics clean = edits.write("main.cpp", "#include <string>\n\nint main() {\n  return 1;\n}\n");
  BOOST_TEST(clean.checker == "g++");
  BOOST_TEST(clean.status == "clean", describe(clean));

  EditDiagnostics broken =
      edits.write("main.cpp", "#include <string>\n\nint main() {\n  int x = std::string(\"hello\");\n  return x;\n}\n");
  BOOST_TEST(has_problem(broken.problems, "main.cpp", 4, "cannot convert 'std::string'"), describe(broken));
  BOOST_TEST(has_problem(broken.introduced, "main.cpp", 4, "cannot convert"), describe(broken));
}

BOOST_AUTO_TEST_CASE(bash_n_reports_syntax_errors_without_shellcheck) {
  ToolShelf shelf({"bash"});
  TempFolder workspace;
  EditChecker checker(generous_budget());
  EditRunner edits{checker, workspace, shelf.environment()};
  EditDiagnostics broken = edits.write("run.sh", "#!/bin/bash\nif true; then\n  echo hello\n");
  BOOST_TEST(broken.checker == "bash -n");
  BOOST_TEST(has_problem(broken.problems, "run.sh", 4, "syntax error: unexpected end of file"), describe(broken));
  EditDiagnostics fixed = edits.write("run.sh", "#!/bin/bash\nif true; then\n  echo hello\nfi\n");
  BOOST_TEST(fixed.status == "clean", describe(fixed));
  BOOST_TEST(fixed.resolved.size() == 1u, describe(fixed));
}

BOOST_AUTO_TEST_CASE(gcc_checks_c_files) {
  ToolShelf shelf({"gcc"});
  TempFolder workspace;
  EditChecker checker(generous_budget());
  EditRunner edits{checker, workspace, shelf.environment()};
  EditDiagnostics broken = edits.write("main.c", "int main(void) {\n  return y;\n}\n");
  BOOST_TEST(broken.checker == "gcc");
  BOOST_TEST(has_problem(broken.problems, "main.c", 2, "'y' undeclared (first use in this function)"),
             describe(broken));
  BOOST_TEST(broken.compared);
  BOOST_TEST(broken.introduced.size() == 1u, describe(broken));
}

BOOST_AUTO_TEST_CASE(tsc_reports_type_errors) {
  ToolShelf shelf({"tsc", "node"});
  TempFolder workspace;
  EditChecker checker(generous_budget());
  EditRunner edits{checker, workspace, shelf.environment()};

  EditDiagnostics clean = edits.write("main.ts", "const x: number = 1;\nconsole.log(x);\n");
  BOOST_TEST(clean.checker == "tsc");
  BOOST_TEST(clean.status == "clean", describe(clean));
  EditDiagnostics broken = edits.write("main.ts", "const x: number = \"hello\";\nconsole.log(x);\n");
  BOOST_TEST(has_problem(broken.problems, "main.ts", 1, "Type 'string' is not assignable to type 'number'."),
             describe(broken));
  BOOST_TEST(diagnostics_text(broken, 20s)
                     .find("main.ts:1:7: error: Type 'string' is not assignable to type 'number'. [TS2322]") !=
                 std::string::npos,
             diagnostics_text(broken, 20s));
  BOOST_TEST_MESSAGE("tsc (TypeScript 5) fallback: " << broken.duration_ms << " ms");
}

BOOST_AUTO_TEST_CASE(eslint_reports_rule_violations_when_the_project_configures_it) {
  ToolShelf shelf({"eslint", "tsc", "node"});
  TempFolder workspace;
  workspace.write("eslint.config.mjs",
                  "export default [{ rules: { \"no-undef\": \"error\", \"no-unused-vars\": \"warn\" } }];\n");
  EditChecker checker(generous_budget());
  EditRunner edits{checker, workspace, shelf.environment()};

  EditDiagnostics broken = edits.write("app.js", "const used = 1;\nconsole.log(used + missing);\n");
  BOOST_TEST(broken.checker == "eslint");
  BOOST_TEST(has_problem(broken.problems, "app.js", 2, "'missing' is not defined."), describe(broken));
  BOOST_TEST(diagnostics_text(broken, 2s).find("app.js:2:20: error: 'missing' is not defined. [no-undef]") !=
                 std::string::npos,
             diagnostics_text(broken, 2s));
  BOOST_TEST_MESSAGE("eslint fallback: " << broken.duration_ms << " ms");
}

BOOST_AUTO_TEST_CASE(cargo_check_reports_rust_errors) {
  ToolShelf shelf({"cargo", "rustc"});
  TempFolder workspace;
  workspace.write("Cargo.toml", "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n");
  workspace.write("src/main.rs", "fn main() {\n    println!(\"hi\");\n}\n");
  EditChecker checker(generous_budget());
  EditRunner edits{checker, workspace, shelf.environment()};

  EditDiagnostics clean = edits.write("src/main.rs", "fn main() {\n    println!(\"hello\");\n}\n");
  BOOST_TEST(clean.checker == "cargo check");
  BOOST_TEST(clean.status == "clean", describe(clean));
  EditDiagnostics broken =
      edits.write("src/main.rs", "fn main() {\n    let x: i32 = \"a\";\n    println!(\"{}\", x);\n}\n");
  BOOST_TEST(has_problem(broken.problems, "src/main.rs", 2, "mismatched types"), describe(broken));
  BOOST_TEST(broken.problems.front().code == "E0308", describe(broken));
  BOOST_TEST_MESSAGE("cargo check fallback: " << broken.duration_ms << " ms");
}

/// How many of `problems` are errors.
long errors_in(const std::vector<Problem>& problems) {
  return std::count_if(problems.begin(), problems.end(), [](const Problem& problem) { return problem.severity == "error"; });
}

// Fifteen broken callers in another file, as after a rename: tsc -p reports each of them, so the
// model reads ten and a true count of the rest.
BOOST_AUTO_TEST_CASE(tsc_counts_every_broken_caller_of_a_renamed_function) {
  ToolShelf shelf({"tsc", "node"});
  TempFolder workspace;
  workspace.write("tsconfig.json", "{\"compilerOptions\": {\"strict\": true, \"target\": \"es2020\", \"module\": "
                                   "\"commonjs\", \"types\": []}}\n");
  workspace.write("helper.ts", "export function helper(): number {\n  return 1;\n}\n");
  std::string callers = "import * as h from \"./helper\";\n\nexport const total =\n  0";
  for (int i = 0; i < 15; ++i) callers += " +\n  h.helper()";
  workspace.write("main.ts", callers + ";\n");
  EditChecker checker(generous_budget());
  EditRunner edits{checker, workspace, shelf.environment()};
  EditDiagnostics renamed = edits.write("helper.ts", "export function assist(): number {\n  return 1;\n}\n");
  BOOST_TEST(renamed.checker == "tsc");
  BOOST_TEST(renamed.problems.size() == 15u, describe(renamed));
  BOOST_TEST(renamed.introduced.size() == 15u, describe(renamed));
  BOOST_TEST(has_problem(renamed.problems, "main.ts", 19, "Property 'helper' does not exist", true), describe(renamed));
  std::string text = diagnostics_text(renamed, 20s);
  BOOST_TEST(text.find("diagnostics (tsc): 15 problems (15 in other files)\n") != std::string::npos, text);
  BOOST_TEST(text.find("  ... 5 more not shown (5 errors, 0 warnings)\n") != std::string::npos, text);
}

BOOST_AUTO_TEST_CASE(eslint_counts_every_violation_of_a_file) {
  ToolShelf shelf({"eslint", "node"});
  TempFolder workspace;
  workspace.write("eslint.config.mjs", "export default [{ rules: { \"no-undef\": \"error\" } }];\n");
  EditChecker checker(generous_budget());
  EditRunner edits{checker, workspace, shelf.environment()};
  std::string names;
  for (int i = 1; i <= 15; ++i) names += "export const v" + std::to_string(i) + " = missing" + std::to_string(i) + ";\n";
  EditDiagnostics broken = edits.write("app.js", names);
  BOOST_TEST(broken.checker == "eslint");
  BOOST_TEST(broken.problems.size() == 15u, describe(broken));
  BOOST_TEST(has_problem(broken.problems, "app.js", 15, "'missing15' is not defined."), describe(broken));
  BOOST_TEST(diagnostics_text(broken, 20s).find("  ... 5 more not shown (5 errors, 0 warnings)\n") !=
                 std::string::npos,
             diagnostics_text(broken, 20s));
}

BOOST_AUTO_TEST_CASE(cargo_check_counts_every_error_of_the_crate) {
  ToolShelf shelf({"cargo", "rustc"});
  TempFolder workspace;
  workspace.write("Cargo.toml", "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n");
  workspace.write("src/main.rs", "fn main() {\n}\n");
  EditChecker checker(generous_budget());
  EditRunner edits{checker, workspace, shelf.environment()};
  std::string body = "fn main() {\n";
  for (int i = 1; i <= 15; ++i) body += "    let _x" + std::to_string(i) + ": i32 = \"a\";\n";
  EditDiagnostics broken = edits.write("src/main.rs", body + "}\n");
  BOOST_TEST(broken.checker == "cargo check");
  BOOST_TEST(errors_in(broken.problems) == 15, describe(broken));
  BOOST_TEST(has_problem(broken.problems, "src/main.rs", 16, "mismatched types"), describe(broken));
}

BOOST_AUTO_TEST_CASE(a_file_no_checker_knows_adds_nothing) {
  ToolShelf shelf({"pyflakes3"});
  TempFolder workspace;
  EditChecker checker(generous_budget());
  EditRunner edits{checker, workspace, shelf.environment()};
  EditDiagnostics notes = edits.write("notes.txt", "just text\n");
  BOOST_TEST(notes.status == "unavailable");
  BOOST_TEST(diagnostics_text(notes, 2s).empty());
  EditDiagnostics go_file = edits.write("main.go", "package main\n");
  BOOST_TEST(go_file.status == "unavailable");
  BOOST_TEST(go_file.note == "no language server or linter for this file on PATH");
}

BOOST_AUTO_TEST_SUITE_END()
