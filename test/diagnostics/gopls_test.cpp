#include "diagnostics/model_text.h"
#include "diagnostics_fixture.h"
#include "exec/process.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;
using namespace agent_run::test;
using namespace std::chrono_literals;

BOOST_AUTO_TEST_SUITE(gopls_server)

// One warm gopls for the whole case: cold start, then clean edits, an error, a rename breaking an
// unopened caller in another file, then a clean shutdown.
BOOST_AUTO_TEST_CASE(reports_errors_stays_silent_when_clean_and_labels_broken_callers) {
  std::vector<std::string> environment = tools_environment();
  require_program("gopls", environment);
  require_program("go", environment);
  TempFolder workspace;
  workspace.write("go.mod", "module example.com/m\n\ngo 1.19\n");
  workspace.write("helper.go", "package main\n\nfunc Helper() int { return 1 }\n");
  workspace.write("main.go", "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(Helper())\n}\n");
  EditChecker checker(generous_budget());
  EditRunner edits{checker, workspace, environment};

  auto warm = checker.warm_up(workspace.path() / "main.go", workspace.path(), environment, 120s);
  BOOST_REQUIRE_MESSAGE(warm && *warm == "gopls", (warm ? *warm : warm.error().message));
  EditDiagnostics clean =
      edits.write("main.go", "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(Helper() + 1)\n}\n");
  BOOST_TEST_MESSAGE("clean: " << describe(clean) << " in " << clean.duration_ms << " ms");
  BOOST_TEST(clean.checker == "gopls");
  BOOST_TEST(clean.status == "clean", describe(clean));
  BOOST_TEST(diagnostics_text(clean, 2s).empty());

  EditDiagnostics broken = edits.write(
      "main.go",
      "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tvar x int = \"hello\"\n\tfmt.Println(Helper(), x)\n}\n");
  BOOST_TEST(broken.checker == "gopls");
  BOOST_TEST(broken.checker_kind == "server");
  BOOST_TEST(broken.status == "problems", describe(broken));
  BOOST_TEST(broken.checker_version.find("master (go1.") != std::string::npos, broken.checker_version);
  BOOST_TEST(has_problem(broken.problems, "main.go", 6, "cannot use \"hello\""), describe(broken));
  BOOST_TEST(has_problem(broken.introduced, "main.go", 6, "cannot use \"hello\""), describe(broken));
  std::string text = diagnostics_text(broken, 2s);
  BOOST_TEST(
      text.find("diagnostics (gopls): 1 problem\n  main.go:6:14: error: cannot use \"hello\"") != std::string::npos,
      text);

  BOOST_TEST_MESSAGE("broken: " << broken.duration_ms << " ms");
  EditDiagnostics fixed =
      edits.write("main.go", "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(Helper())\n}\n");
  BOOST_TEST(fixed.status == "clean", describe(fixed));
  BOOST_TEST(has_problem(fixed.resolved, "main.go", 6, "cannot use \"hello\""), describe(fixed));

  EditDiagnostics renamed = edits.write("helper.go", "package main\n\nfunc Assist() int { return 1 }\n");
  BOOST_TEST_MESSAGE("fixed " << fixed.duration_ms << " ms, renamed: " << renamed.duration_ms << " ms");
  BOOST_TEST(renamed.status == "problems", describe(renamed));
  BOOST_TEST(has_problem(renamed.problems, "main.go", 6, "Helper", true), describe(renamed));
  BOOST_TEST(diagnostics_text(renamed, 2s).find("[other file] main.go:6:") != std::string::npos);
  BOOST_TEST_MESSAGE(diagnostics_text(broken, 2s) << diagnostics_text(renamed, 2s));

  PoolShutdown shutdown = checker.pool().shutdown_all();
  BOOST_TEST(shutdown.exited == 1);
  BOOST_TEST(shutdown.killed == 0);
}

// The case on real gopls: the definition renamed in a.go while gopls holds a.go open
// (sed -i, as bash runs it: no edit tool), then the caller in b.go edited to the new name. gopls
// must have been told, or it reports the new name as undeclared.
BOOST_AUTO_TEST_CASE(a_definition_renamed_on_disk_then_its_caller_edited_gives_no_false_undeclared_name) {
  std::vector<std::string> environment = tools_environment();
  require_program("gopls", environment);
  require_program("go", environment);
  TempFolder workspace;
  workspace.write("go.mod", "module example.com/m\n\ngo 1.19\n");
  workspace.write("a.go", "package main\n\nfunc Helper() int { return 1 }\n");
  workspace.write("b.go", "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(Helper())\n}\n");
  EditChecker checker(generous_budget());
  EditRunner edits{checker, workspace, environment};
  auto warm = checker.warm_up(workspace.path() / "b.go", workspace.path(), environment, 120s);
  BOOST_REQUIRE_MESSAGE(warm && *warm == "gopls", (warm ? *warm : warm.error().message));

  EditDiagnostics comment = edits.write("a.go", "package main\n\n// Helper helps.\nfunc Helper() int { return 1 }\n");
  BOOST_TEST(comment.checker == "gopls", describe(comment));
  BOOST_TEST(comment.status == "clean", describe(comment));
  auto sed = run_process(shell_command("sed -i s/Helper/Assist/g a.go", std::filesystem::canonical(workspace.path()), 60s));
  BOOST_REQUIRE(sed && sed->exit_code == 0);
  EditDiagnostics caller = edits.write(
      "b.go", "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(Assist())\n}\n");
  BOOST_TEST(caller.checker == "gopls", describe(caller));
  BOOST_TEST(caller.status == "clean", describe(caller));
  BOOST_TEST(!has_problem(caller.problems, "b.go", 6, "Assist"), describe(caller));
}

BOOST_AUTO_TEST_SUITE_END()
