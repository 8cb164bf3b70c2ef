#include "diagnostics/model_text.h"
#include "diagnostics_fixture.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;
using namespace agent_run::test;
using namespace std::chrono_literals;

BOOST_AUTO_TEST_SUITE(pyright_server)

// One warm pyright-langserver (pull diagnostics once it registers them) for the whole case.
BOOST_AUTO_TEST_CASE(reports_errors_stays_silent_when_clean_and_labels_broken_callers) {
  std::vector<std::string> environment = tools_environment();
  require_program("pyright-langserver", environment);
  TempFolder workspace;
  workspace.write("pyproject.toml", "[project]\nname = \"demo\"\n");
  workspace.write("helper.py", "def helper() -> int:\n    return 1\n");
  workspace.write("main.py", "from helper import helper\n\nprint(helper())\n");
  EditChecker checker(generous_budget());
  EditRunner edits{checker, workspace, environment};
  auto warm = checker.warm_up(workspace.path() / "main.py", workspace.path(), environment, 120s);
  BOOST_REQUIRE_MESSAGE(warm && *warm == "pyright-langserver", (warm ? *warm : warm.error().message));

  EditDiagnostics clean = edits.write("main.py", "from helper import helper\n\nprint(helper() + 1)\n");
  BOOST_TEST(clean.checker == "pyright-langserver", describe(clean));
  BOOST_TEST(clean.status == "clean", describe(clean));
  BOOST_TEST(diagnostics_text(clean, 2s).empty());

  EditDiagnostics broken =
      edits.write("main.py", "from helper import helper\n\nx: int = \"hello\"\nprint(helper(), x)\n");
  BOOST_TEST(broken.status == "problems", describe(broken));
  BOOST_TEST(broken.checker_version.find("pyright 1.1.414") != std::string::npos, broken.checker_version);
  BOOST_TEST(has_problem(broken.problems, "main.py", 3, "is not assignable to declared type \"int\""),
             describe(broken));
  BOOST_TEST(has_problem(broken.introduced, "main.py", 3, "is not assignable"), describe(broken));
  std::string text = diagnostics_text(broken, 2s);
  BOOST_TEST(
      text.find("diagnostics (pyright-langserver): 1 problem\n  main.py:3:10: error: Type \"Literal['hello']\"") !=
          std::string::npos,
      text);
  BOOST_TEST(text.find("[reportAssignmentType]") != std::string::npos, text);

  EditDiagnostics fixed = edits.write("main.py", "from helper import helper\n\nprint(helper())\n");
  BOOST_TEST(fixed.status == "clean", describe(fixed));
  BOOST_TEST(fixed.resolved.size() == 1u, describe(fixed));

  EditDiagnostics renamed = edits.write("helper.py", "def assist() -> int:\n    return 1\n");
  BOOST_TEST(has_problem(renamed.problems, "main.py", 1, "helper", true), describe(renamed));
  BOOST_TEST(has_problem(renamed.introduced, "main.py", 1, "helper", true), describe(renamed));
  BOOST_TEST(diagnostics_text(renamed, 2s).find("[other file] main.py:1:") != std::string::npos,
             diagnostics_text(renamed, 2s));
  BOOST_TEST_MESSAGE("pyright: clean " << clean.duration_ms << " ms, error " << broken.duration_ms << " ms, fixed "
                                       << fixed.duration_ms << " ms, rename " << renamed.duration_ms << " ms");

  PoolShutdown shutdown = checker.pool().shutdown_all();
  BOOST_TEST(shutdown.exited == 1);
  BOOST_TEST(shutdown.killed == 0);
}

// pyright publishes diagnostics only for open documents: b.py, which imports the renamed function and
// was never opened, is opened by the check (with a.py's earlier text held, for its list before the
// edit) and its break is reported; c.py's error from before the edit is not counted as introduced.
BOOST_AUTO_TEST_CASE(a_rename_is_reported_in_the_files_importing_it_that_were_never_opened) {
  std::vector<std::string> environment = tools_environment();
  require_program("pyright-langserver", environment);
  TempFolder workspace;
  workspace.write("pyproject.toml", "[project]\nname = \"demo\"\n");
  workspace.write("a.py", "def old() -> int:\n    return 1\n");
  workspace.write("b.py", "from a import old\n\nprint(old())\n");
  workspace.write("c.py", "import a\n\ny: int = \"text\"\nprint(a, y)\n");
  EditChecker checker(generous_budget());
  EditRunner edits{checker, workspace, environment};
  auto warm = checker.warm_up(workspace.path() / "a.py", workspace.path(), environment, 120s);
  BOOST_REQUIRE_MESSAGE(warm && *warm == "pyright-langserver", (warm ? *warm : warm.error().message));

  EditDiagnostics renamed = edits.write("a.py", "def new() -> int:\n    return 1\n");
  BOOST_TEST(renamed.checker == "pyright-langserver", describe(renamed));
  BOOST_TEST(has_problem(renamed.introduced, "b.py", 1, "\"old\" is unknown import symbol", true), describe(renamed));
  BOOST_TEST(diagnostics_text(renamed, 2s).find("[other file] b.py:1:") != std::string::npos,
             diagnostics_text(renamed, 2s));
  for (const Problem& problem : renamed.introduced) BOOST_TEST(problem.path != "c.py", describe(renamed));

  EditDiagnostics fixed = edits.write("b.py", "from a import new\n\nprint(new())\n");
  BOOST_TEST(fixed.status == "clean", describe(fixed));
  BOOST_TEST(has_problem(fixed.resolved, "b.py", 1, "old"), describe(fixed));
  BOOST_TEST_MESSAGE("pyright: rename with its importers " << renamed.duration_ms << " ms");
  PoolShutdown shutdown = checker.pool().shutdown_all();
  BOOST_TEST(shutdown.exited == 1);
}

BOOST_AUTO_TEST_SUITE_END()
