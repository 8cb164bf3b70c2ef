#include "diagnostics/model_text.h"
#include "diagnostics_fixture.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;
using namespace agent_run::test;
using namespace std::chrono_literals;

BOOST_AUTO_TEST_SUITE(clangd_server)

// One warm clangd for the whole case; the rename breaks an open .cpp that includes the edited header.
BOOST_AUTO_TEST_CASE(reports_errors_stays_silent_when_clean_and_labels_broken_callers) {
  std::vector<std::string> environment = tools_environment();
  require_program("clangd", environment);
  TempFolder workspace;
  workspace.write("compile_flags.txt", "-std=c++17\n-xc++\n");
  workspace.write("helper.hpp", "#pragma once\ninline int helper() { return 1; }\n");
  workspace.write("main.cpp", "#include \"helper.hpp\"\n\nint main() {\n  return helper();\n}\n");
  EditChecker checker(generous_budget());
  EditRunner edits{checker, workspace, environment};
  auto warm = checker.warm_up(workspace.path() / "main.cpp", workspace.path(), environment, 120s);
  BOOST_REQUIRE_MESSAGE(warm && *warm == "clangd", (warm ? *warm : warm.error().message));

  EditDiagnostics clean =
      edits.write("main.cpp", "#include \"helper.hpp\"\n\nint main() {\n  return helper() - 1;\n}\n");
  BOOST_TEST(clean.checker == "clangd", describe(clean));
  BOOST_TEST(clean.status == "clean", describe(clean));
  BOOST_TEST(diagnostics_text(clean, 2s).empty());

  EditDiagnostics broken = edits.write("main.cpp",
                                       "#include \"helper.hpp\"\n#include <string>\n\nint main() {\n  int x = "
                                       "std::string(\"hello\");\n  return helper() + x;\n}\n");
  BOOST_TEST(broken.status == "problems", describe(broken));
  BOOST_TEST(broken.checker_version.find("clangd version") != std::string::npos, broken.checker_version);
  BOOST_TEST(has_problem(broken.problems, "main.cpp", 5, "No viable conversion from 'std::string'"), describe(broken));
  BOOST_TEST(has_problem(broken.introduced, "main.cpp", 5, "No viable conversion"), describe(broken));
  std::string text = diagnostics_text(broken, 2s);
  BOOST_TEST(text.find("main.cpp:5:7: error: No viable conversion from 'std::string'") != std::string::npos, text);

  EditDiagnostics fixed = edits.write("main.cpp", "#include \"helper.hpp\"\n\nint main() {\n  return helper();\n}\n");
  BOOST_TEST(fixed.status == "clean", describe(fixed));
  BOOST_TEST(fixed.resolved.size() == 1u, describe(fixed));

  // A new name of another length: clangd 14 tells whether an including file's preamble is stale by
  // the header's size and modification time, so a same-length rename within a second goes unseen.
  EditDiagnostics renamed = edits.write("helper.hpp", "#pragma once\ninline int assistant() { return 1; }\n");
  BOOST_TEST(has_problem(renamed.problems, "main.cpp", 4, "helper", true), describe(renamed));
  BOOST_TEST(diagnostics_text(renamed, 2s).find("[other file] main.cpp:4:") != std::string::npos);
  BOOST_TEST_MESSAGE("clangd: clean " << clean.duration_ms << " ms, error " << broken.duration_ms << " ms, fixed "
                                      << fixed.duration_ms << " ms, rename " << renamed.duration_ms << " ms");
  // Servers are keyed by the project around the file: a second project in the workspace gets its own.
  workspace.write("tool/compile_flags.txt", "-std=c++17\n");
  EditDiagnostics other_project = edits.write("tool/tool.cpp", "int main() { return missing; }\n");
  BOOST_TEST(other_project.checker == "g++", describe(other_project));  // the linter, while a new clangd starts
  BOOST_TEST(other_project.note == "clangd is starting");
  BOOST_TEST(has_problem(other_project.problems, "tool/tool.cpp", 1, "'missing' was not declared in this scope"),
             describe(other_project));
  BOOST_TEST(checker.pool().live_servers() == 2u);
  PoolShutdown shutdown = checker.pool().shutdown_all();
  BOOST_TEST(shutdown.exited == 2);
  BOOST_TEST(shutdown.killed == 0);
}

// clangd shows a warning that the project's flags make an error as a warning (clangd 14 drops the
// -Werror mapping); the build fails on it, so the edit's result says error, as the compiler does.
// And under -pedantic it says a file without an #include declares nothing, which the compiler does not.
BOOST_AUTO_TEST_CASE(a_warning_the_flags_make_an_error_is_labelled_an_error_as_the_compiler_says) {
  std::vector<std::string> environment = tools_environment();
  require_program("clangd", environment);
  require_program("gcc", environment);
  TempFolder workspace;
  workspace.write("compile_flags.txt", "-std=c11\n-pedantic\n-pedantic-errors\n-Wall\n");
  workspace.write("limbs.c", "int limbs(void) { return 0; }\n");
  workspace.write("other/compile_flags.txt", "-std=c11\n-Wall\n-Werror\n-Wno-error=unused-variable\n");
  workspace.write("other/unused.c", "int f(void) { return 0; }\n");
  workspace.write("header/compile_flags.txt", "-std=c11\n-pedantic\n-pedantic-errors\n-Wall\n");  // as ring's
  workspace.write("header/zero.h", "int are_zero(int n);\n");
  workspace.write("header/user.c", "#include \"zero.h\"\nint user(void) { return are_zero(1); }\n");
  EditChecker checker(generous_budget());
  EditRunner edits{checker, workspace, environment};
  for (const char* file : {"limbs.c", "other/unused.c", "header/user.c"}) {
    auto warm = checker.warm_up(workspace.path() / file, workspace.path(), environment, 120s);
    BOOST_REQUIRE_MESSAGE(warm && *warm == "clangd", (warm ? *warm : warm.error().message));
  }

  // A header's rename leaves a file including it with an implicit declaration: the compiler is asked
  // of that file, and says error. (First, so that the verdict on this warning is learned from it.)
  EditDiagnostics header = edits.write("header/zero.h", "int all_zero(int n);\n");
  BOOST_TEST(header.checker == "clangd", describe(header));
  BOOST_TEST(has_problem(header.problems, "header/user.c", 2, "Implicit declaration of function 'are_zero'", true),
             describe(header));
  for (const Problem& problem : header.problems) BOOST_TEST(problem.severity == "error", describe(header));

  // -pedantic-errors: C11 has no implicit declarations; gcc and clang both fail the build on it.
  EditDiagnostics implicit = edits.write("limbs.c", "int limbs(void) { return limbs_are_zero(1); }\n");
  BOOST_TEST(implicit.checker == "clangd", describe(implicit));
  BOOST_REQUIRE_MESSAGE(implicit.problems.size() == 1u, describe(implicit));
  BOOST_TEST(implicit.problems[0].code == "-Wimplicit-function-declaration", describe(implicit));
  BOOST_TEST(implicit.problems[0].severity == "error", describe(implicit));
  BOOST_TEST(implicit.introduced.size() == 1u, describe(implicit));
  EditDiagnostics fixed = edits.write("limbs.c", "int limbs(void) { return 0; }\n");
  BOOST_TEST(fixed.status == "clean", describe(fixed));
  BOOST_TEST(fixed.resolved.size() == 1u, describe(fixed));

  // -Werror with an exemption after it: the exempted warning stays a warning, another is an error.
  EditDiagnostics werror = edits.write("other/unused.c", "int f(void) {\n  int x;\n}\n");
  BOOST_TEST(werror.checker == "clangd", describe(werror));
  auto severity_of = [&](const std::string& code) {
    for (const Problem& problem : werror.problems) {
      if (problem.code == code) return problem.severity;
    }
    return std::string("none");
  };
  BOOST_TEST(severity_of("-Wunused-variable") == "warning", describe(werror));
  BOOST_TEST(severity_of("-Wreturn-type") == "error", describe(werror));

  checker.pool().shutdown_all();
}

BOOST_AUTO_TEST_SUITE_END()
