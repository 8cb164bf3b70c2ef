#include "diagnostics/model_text.h"
#include "diagnostics_fixture.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;
using namespace agent_run::test;
using namespace std::chrono_literals;

BOOST_AUTO_TEST_SUITE(typescript_language_server)

// One warm typescript-language-server (over TypeScript 5's tsserver.js) for the whole case. It says
// nothing when a clean file stays clean, which the check must read as clean, not as a timeout.
BOOST_AUTO_TEST_CASE(reports_errors_stays_silent_when_clean_and_labels_broken_callers) {
  std::vector<std::string> environment = tools_environment();
  require_program("typescript-language-server", environment);
  TempFolder workspace;
  workspace.write("tsconfig.json",
                  "{\"compilerOptions\": {\"strict\": true, \"target\": \"es2020\", \"module\": \"commonjs\"}}\n");
  workspace.write("helper.ts", "export function helper(): number {\n  return 1;\n}\n");
  workspace.write("main.ts",
                  "import { helper } from \"./helper\";\n\nconst y: string = 1;\nconsole.log(helper(), y);\n");
  EditChecker checker(generous_budget());
  EditRunner edits{checker, workspace, environment};
  auto warm =
      checker.warm_up(workspace.path() / "main.ts", workspace.path(), environment, 120s, Silence::means_waiting);
  BOOST_REQUIRE_MESSAGE(warm && *warm == "typescript-language-server", (warm ? *warm : warm.error().message));

  EditDiagnostics clean =
      edits.write("main.ts", "import { helper } from \"./helper\";\n\nconsole.log(helper() + 1);\n");
  BOOST_TEST(clean.checker == "typescript-language-server", describe(clean));
  BOOST_TEST(clean.status == "clean", describe(clean));
  BOOST_TEST(diagnostics_text(clean, 2s).empty());
  BOOST_TEST(has_problem(clean.resolved, "main.ts", 3, "Type 'number' is not assignable to type 'string'."),
             describe(clean));
  EditDiagnostics still_clean =
      edits.write("main.ts", "import { helper } from \"./helper\";\n\nconsole.log(helper() + 2);\n");
  BOOST_TEST(still_clean.status == "clean", describe(still_clean));  // said nothing: read as clean

  EditDiagnostics broken = edits.write(
      "main.ts", "import { helper } from \"./helper\";\n\nconst x: number = \"hello\";\nconsole.log(helper(), x);\n");
  BOOST_TEST(broken.status == "problems", describe(broken));
  BOOST_TEST(broken.checker_version.find("5.3.0") != std::string::npos, broken.checker_version);
  BOOST_TEST(has_problem(broken.problems, "main.ts", 3, "Type 'string' is not assignable to type 'number'."),
             describe(broken));
  BOOST_TEST(has_problem(broken.introduced, "main.ts", 3, "not assignable"), describe(broken));
  std::string text = diagnostics_text(broken, 2s);
  BOOST_TEST(
      text.find("main.ts:3:7: error: Type 'string' is not assignable to type 'number'. [2322]") != std::string::npos,
      text);

  EditDiagnostics fixed = edits.write("main.ts", "import { helper } from \"./helper\";\n\nconsole.log(helper());\n");
  BOOST_TEST(fixed.status == "clean", describe(fixed));
  BOOST_TEST(fixed.resolved.size() == 1u, describe(fixed));

  EditDiagnostics renamed = edits.write("helper.ts", "export function assist(): number {\n  return 1;\n}\n");
  BOOST_TEST(has_problem(renamed.problems, "main.ts", 1, "helper", true), describe(renamed));
  BOOST_TEST(diagnostics_text(renamed, 2s).find("[other file] main.ts:1:") != std::string::npos);
  BOOST_TEST_MESSAGE("typescript-language-server: clean " << clean.duration_ms << " ms, error " << broken.duration_ms
                                                          << " ms, fixed " << fixed.duration_ms << " ms, rename "
                                                          << renamed.duration_ms << " ms");
  PoolShutdown shutdown = checker.pool().shutdown_all();
  BOOST_TEST(shutdown.exited == 1);
  BOOST_TEST(shutdown.killed == 0);
}

// tsserver publishes diagnostics only for open documents: b.ts, which imports the renamed function
// and was never opened, is opened by the check (with a.ts's earlier text held, for its list before
// the edit) and its break is reported; c.ts's error from before the edit is not counted as introduced.
BOOST_AUTO_TEST_CASE(a_rename_is_reported_in_the_files_importing_it_that_were_never_opened) {
  std::vector<std::string> environment = tools_environment();
  require_program("typescript-language-server", environment);
  TempFolder workspace;
  workspace.write("tsconfig.json",
                  "{\"compilerOptions\": {\"strict\": true, \"target\": \"es2020\", \"module\": \"commonjs\"}}\n");
  workspace.write("a.ts", "export function old(): number {\n  return 1;\n}\n");
  workspace.write("b.ts", "import { old } from \"./a\";\n\nconsole.log(old());\n");
  workspace.write("c.ts", "import * as a from \"./a\";\n\nconst y: string = 1;\nconsole.log(a, y);\n");
  workspace.write("warm.ts", "const z: number = \"warm\";\nconsole.log(z);\n");
  EditChecker checker(generous_budget());
  EditRunner edits{checker, workspace, environment};
  auto warm =
      checker.warm_up(workspace.path() / "warm.ts", workspace.path(), environment, 120s, Silence::means_waiting);
  BOOST_REQUIRE_MESSAGE(warm && *warm == "typescript-language-server", (warm ? *warm : warm.error().message));

  EditDiagnostics renamed = edits.write("a.ts", "export function fresh(): number {\n  return 1;\n}\n");
  BOOST_TEST(renamed.checker == "typescript-language-server", describe(renamed));
  BOOST_TEST(has_problem(renamed.introduced, "b.ts", 1, "has no exported member 'old'", true), describe(renamed));
  BOOST_TEST(diagnostics_text(renamed, 2s).find("[other file] b.ts:1:") != std::string::npos,
             diagnostics_text(renamed, 2s));
  for (const Problem& problem : renamed.introduced) BOOST_TEST(problem.path != "c.ts", describe(renamed));

  EditDiagnostics fixed = edits.write("b.ts", "import { fresh } from \"./a\";\n\nconsole.log(fresh());\n");
  BOOST_TEST(fixed.status == "clean", describe(fixed));
  BOOST_TEST(has_problem(fixed.resolved, "b.ts", 1, "old"), describe(fixed));
  BOOST_TEST_MESSAGE("typescript-language-server: rename with its importers " << renamed.duration_ms << " ms");
  PoolShutdown shutdown = checker.pool().shutdown_all();
  BOOST_TEST(shutdown.exited == 1);
}

BOOST_AUTO_TEST_SUITE_END()
