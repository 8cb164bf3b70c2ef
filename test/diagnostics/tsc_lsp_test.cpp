#include "diagnostics/model_text.h"
#include "diagnostics_fixture.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;
using namespace agent_run::test;
using namespace std::chrono_literals;

BOOST_AUTO_TEST_SUITE(tsc_lsp_server)

// TypeScript 7's own server (`tsc --lsp --stdio`), chosen when the tsc found is a 7.x; pull only.
BOOST_AUTO_TEST_CASE(typescript_7_is_its_own_pull_server) {
  const char* path = ::getenv("PATH");
  std::vector<std::string> environment =
      environment_with_path((tools_folder() / "ts7/node_modules/.bin").string() + ":" + npm_tools_bin().string() +
                            ":" + (path ? path : ""));
  require_program("tsc", environment);
  TempFolder workspace;
  workspace.write("tsconfig.json",
                  "{\"compilerOptions\": {\"strict\": true, \"target\": \"es2020\", \"module\": \"commonjs\"}}\n");
  workspace.write("helper.ts", "export function helper(): number {\n  return 1;\n}\n");
  workspace.write("main.ts", "import { helper } from \"./helper\";\n\nconsole.log(helper());\n");
  EditChecker checker(generous_budget());
  EditRunner edits{checker, workspace, environment};
  auto warm = checker.warm_up(workspace.path() / "main.ts", workspace.path(), environment, 120s);
  BOOST_REQUIRE_MESSAGE(warm && *warm == "tsc --lsp", (warm ? *warm : warm.error().message));

  EditDiagnostics broken = edits.write(
      "main.ts", "import { helper } from \"./helper\";\n\nconst x: number = \"hello\";\nconsole.log(helper(), x);\n");
  BOOST_TEST(broken.checker == "tsc --lsp", describe(broken));
  BOOST_TEST(has_problem(broken.problems, "main.ts", 3, "Type 'string' is not assignable to type 'number'."),
             describe(broken));
  BOOST_TEST(broken.checker_version == "7.0.2");
  EditDiagnostics fixed = edits.write("main.ts", "import { helper } from \"./helper\";\n\nconsole.log(helper());\n");
  BOOST_TEST(fixed.status == "clean", describe(fixed));
  EditDiagnostics renamed = edits.write("helper.ts", "export function assist(): number {\n  return 1;\n}\n");
  BOOST_TEST(has_problem(renamed.problems, "main.ts", 1, "helper", true), describe(renamed));
  BOOST_TEST_MESSAGE("tsc --lsp: error " << broken.duration_ms << " ms, fixed " << fixed.duration_ms << " ms, rename "
                                         << renamed.duration_ms << " ms");
  PoolShutdown shutdown = checker.pool().shutdown_all();
  BOOST_TEST(shutdown.exited == 1);
}

BOOST_AUTO_TEST_SUITE_END()
