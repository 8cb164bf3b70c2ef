// Which checker the project gate picks for a project, and how it reads their output (real tools).
#include "diagnostics/project_checkers.h"
#include "diagnostics_fixture.h"
#include "exec/process.h"

#include <boost/test/unit_test.hpp>

using namespace agent_run;
using namespace agent_run::test;

namespace {

std::vector<std::string> names_of(const Expected<std::vector<ProjectChecker>>& checkers) {
  std::vector<std::string> names;
  if (checkers) {
    for (const ProjectChecker& checker : *checkers) names.push_back(checker.name);
  }
  return names;
}

/// Each problem as one line, for comparing.
std::vector<std::string> lines_of(const std::vector<Problem>& problems) {
  std::vector<std::string> lines;
  for (const Problem& p : problems) {
    lines.push_back(p.path + ":" + std::to_string(p.line) + ":" + std::to_string(p.column) + ": " + p.severity + ": " +
                    p.message + " [" + p.code + "]");
  }
  return lines;
}

/// Runs `checker` in `tree` for real and reads what it printed.
Expected<std::vector<Problem>> run_in(const ProjectChecker& checker, const std::filesystem::path& tree,
                                      const std::vector<std::string>& environment) {
  ProcessSpec spec;
  spec.argv = checker.argv;
  for (const std::string& file : project_files(tree, checker.file_suffixes)) {
    if (!checker.file_suffixes.empty()) spec.argv.push_back(file);
  }
  spec.cwd = tree;
  spec.environment = environment;
  spec.environment->push_back("LC_ALL=C");
  auto ran = run_process(spec);
  BOOST_REQUIRE(ran.has_value());
  return read_project_problems(checker, ran->output, ran->exit_code, tree);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(project_checkers)

BOOST_AUTO_TEST_CASE(each_language_the_project_holds_gets_its_checker) {
  TempFolder project;
  project.write("go.mod", "module example.com/m\n\ngo 1.19\n");
  project.write("tools/gen.py", "print(1)\n");
  project.write("ci/run.sh", "#!/bin/sh\necho hi\n");
  auto checkers = choose_project_checkers(project.path(), tools_environment(), {});
  BOOST_TEST(names_of(checkers) == (std::vector<std::string>{"go vet", "pyright"}), boost::test_tools::per_element());
  TempFolder scripts;
  scripts.write("run.sh", "#!/bin/sh\necho hi\n");
  BOOST_TEST(names_of(choose_project_checkers(scripts.path(), tools_environment(), {})) ==
                 (std::vector<std::string>{"shellcheck"}),
             boost::test_tools::per_element());
  TempFolder typed;
  typed.write("tsconfig.json", "{}\n");
  BOOST_TEST(names_of(choose_project_checkers(typed.path(), tools_environment(), {})) ==
                 (std::vector<std::string>{"tsc"}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(go_vet_reads_the_compilers_type_errors_in_a_test_file_as_errors_and_its_findings_as_warnings) {
  ToolShelf shelf({"go"});
  TempFolder project;
  project.write("go.mod", "module example.com/m\n\ngo 1.19\n");
  project.write("route.go", "package m\n\nfunc newRouteRegexp2() int { return 1 }\n");
  // Go 1.19 builds the package's test variant with the compiler for the external test package, so
  // the renamed caller in mux_test.go is printed as the compiler prints it: no `vet: ` before it.
  project.write("mux_test.go", "package m\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) { _ = newRouteRegexp() }\n");
  project.write("example_test.go", "package m_test\n\nimport _ \"example.com/m\"\n");
  project.write("sub/sub.go", "package sub\n\nimport \"fmt\"\n\nfunc F() { fmt.Printf(\"%d\\n\", \"s\") }\n");
  auto checkers = choose_project_checkers(project.path(), shelf.environment(), {"go vet", ""});
  BOOST_REQUIRE(checkers.has_value());
  auto problems = run_in(checkers->front(), project.path(), shelf.environment());
  BOOST_REQUIRE_MESSAGE(problems.has_value(), (problems ? std::string() : problems.error().message));
  BOOST_TEST(lines_of(*problems) ==
                 (std::vector<std::string>{"mux_test.go:5:32: error: undefined: newRouteRegexp []",
                                           "sub/sub.go:5:12: warning: fmt.Printf format %d has arg \"s\" of wrong "
                                           "type string [printf]"}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_language_without_an_installed_checker_or_a_project_without_one_is_an_error) {
  TempFolder project;
  project.write("a.py", "x = 1\n");
  ToolShelf shelf({"sh"});
  auto none = choose_project_checkers(project.path(), shelf.environment(), {});
  BOOST_REQUIRE(!none.has_value());
  BOOST_TEST(none.error().message ==
             "the project holds Python but no checker for it is installed (pyright or ruff, neither in the project's "
             "node_modules/.bin nor on PATH); install one (npm install pyright, or pipx install ruff), or name another "
             "with 'checker:'");
  TempFolder empty;
  empty.write("README.md", "hi\n");
  auto nothing = choose_project_checkers(empty.path(), tools_environment(), {});
  BOOST_REQUIRE(!nothing.has_value());
  BOOST_TEST(nothing.error().message.starts_with("the project holds nothing a project checker reads"));
  auto named = choose_project_checkers(empty.path(), shelf.environment(), {"go vet", ""});
  BOOST_REQUIRE(!named.has_value());
  BOOST_TEST(named.error().message ==
             "the checker 'go vet' it names is not installed (not on PATH); install it: apt-get install golang-go");
}

BOOST_AUTO_TEST_CASE(a_compile_commands_json_in_build_gets_the_compiler_it_names_or_says_what_is_missing) {
  TempFolder project;
  project.write("src/a.cpp", "int a;\n");
  const std::string database = "[{\"directory\": \"" + project.path().string() +
                               "/build\", \"command\": \"c++ -c ../src/a.cpp\", \"file\": \"../src/a.cpp\"}]\n";
  project.write("build/compile_commands.json", database);
  auto chosen = choose_project_checkers(project.path(), tools_environment(), {});
  BOOST_REQUIRE(names_of(chosen) == std::vector<std::string>{"compiler"});
  const ProjectChecker& compiler = chosen->front();
  BOOST_TEST(compiler.compile_entries.size() == 1u);
  BOOST_TEST(compiler.compile_entries[0].file == project.path() / "src/a.cpp");
  BOOST_TEST(compiler.compile_entries[0].arguments.front() == find_program("c++", tools_environment())->string());
  BOOST_TEST(compiler.key_inputs == "<root>/build <root>/src/a.cpp: " + compiler.compile_entries[0].arguments.front() +
                                        " -c ../src/a.cpp\n");  // the same in every attempt's workspace
  ToolShelf shelf({"sh"});                                      // no c++
  auto missing = choose_project_checkers(project.path(), shelf.environment(), {"compiler", ""});
  BOOST_REQUIRE(!missing.has_value());
  BOOST_TEST(missing.error().message ==
             "the checker 'compiler' it names is not installed (no readable compile_commands.json at the project's top "
             "or in build/, or a compiler it names is not on PATH); install it: write compile_commands.json in setup "
             "(cmake -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, or bear -- make) and install its compiler (apt-get install "
             "g++)");
}

BOOST_AUTO_TEST_CASE(pyright_sees_an_import_broken_in_another_file_with_paths_relative_to_the_tree) {
  TempFolder project;
  project.write("pkg/a.py", "def assist():\n    return 1\n");
  project.write("pkg/__init__.py", "");
  project.write("b.py", "from pkg.a import helper\n\nprint(helper())\n");
  require_program("pyright", tools_environment());
  auto checkers = choose_project_checkers(project.path(), tools_environment(), {"pyright", ""});
  BOOST_REQUIRE(checkers.has_value());
  auto problems = run_in(checkers->front(), project.path(), tools_environment());
  BOOST_REQUIRE_MESSAGE(problems.has_value(), (problems ? std::string() : problems.error().message));
  BOOST_TEST(lines_of(*problems) ==
                 (std::vector<std::string>{"b.py:1:19: error: \"helper\" is unknown import symbol [reportAttributeAccessIssue]"}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(shellcheck_reads_every_script_of_the_tree) {
  TempFolder project;
  project.write("a.sh", "#!/bin/sh\nrm -rf \"$DIR/\"\n");
  project.write("node_modules/x/skip.sh", "#!/bin/sh\nrm -rf \"$DIR/\"\n");
  project.write("sub/b.bash", "#!/bin/bash\nif true; then\n");
  BOOST_TEST(project_files(project.path(), {".sh", ".bash"}) == (std::vector<std::string>{"a.sh", "sub/b.bash"}),
             boost::test_tools::per_element());
  require_program("shellcheck", tools_environment());
  auto checkers = choose_project_checkers(project.path(), tools_environment(), {});
  BOOST_REQUIRE(checkers.has_value());
  auto problems = run_in(checkers->front(), project.path(), tools_environment());
  BOOST_REQUIRE_MESSAGE(problems.has_value(), (problems ? std::string() : problems.error().message));
  std::vector<std::string> seen;
  for (const Problem& problem : *problems) seen.push_back(problem.path + ":" + problem.code);
  BOOST_TEST(seen == (std::vector<std::string>{"a.sh:SC2115", "sub/b.bash:SC1073", "sub/b.bash:SC1072"}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(an_exit_code_that_is_not_a_finding_or_findings_nobody_can_read_are_errors) {
  ProjectChecker pyright{"pyright", {"pyright"}, {}, ProjectFormat::pyright_json, LinterFormat::gcc, {1}, {}, {}};
  auto crashed = read_project_problems(pyright, "Error: config file is invalid\n", 3, "/p");
  BOOST_REQUIRE(!crashed.has_value());
  BOOST_TEST(crashed.error().message == "pyright exited 3:\nError: config file is invalid");
  auto unreadable = read_project_problems(pyright, "Segmentation fault\n", 1, "/p");
  BOOST_REQUIRE(!unreadable.has_value());
  BOOST_TEST(unreadable.error().message == "pyright's --outputjson answer cannot be read:\nSegmentation fault");
  ProjectChecker command{"command", {"sh"}, {}, ProjectFormat::linter, LinterFormat::gcc, {-1}, {}, {}};
  auto silent = read_project_problems(command, "", 2, "/p");
  BOOST_REQUIRE(!silent.has_value());
  BOOST_TEST(silent.error().message == "command exited 2 but printed no problem agent-run can read:\n(no output)");
  auto read = read_project_problems(command, "/p/src/x.c:3:4: warning: unused [w]\n", 1, "/p");
  BOOST_REQUIRE(read.has_value());
  BOOST_TEST(lines_of(*read) == (std::vector<std::string>{"src/x.c:3:4: warning: unused [w]"}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()
