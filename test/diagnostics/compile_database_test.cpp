#include "diagnostics/compile_database.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

using namespace agent_run;
using namespace agent_run::test;
namespace fs = std::filesystem;

BOOST_AUTO_TEST_SUITE(compile_database)

BOOST_AUTO_TEST_CASE(a_command_is_split_as_sh_would_and_arguments_are_taken_as_they_are) {
  TempFolder folder;
  folder.write("compile_commands.json",
               "[{\"directory\": \"/w/build\", \"command\": \"/usr/bin/c++ -DNAME=\\\"a b\\\" -I/w/include "
               "-o x.o -c /w/src/a.cpp\", \"file\": \"/w/src/a.cpp\"},\n"
               " {\"directory\": \"/w\", \"arguments\": [\"cc\", \"-c\", \"src/b.c\"], \"file\": \"src/b.c\"}]\n");
  auto entries = read_compile_database(folder.path() / "compile_commands.json");
  BOOST_REQUIRE_MESSAGE(entries.has_value(), (entries ? std::string() : entries.error().message));
  BOOST_REQUIRE(entries->size() == 2u);
  BOOST_TEST((*entries)[0].arguments == (std::vector<std::string>{"/usr/bin/c++", "-DNAME=a b", "-I/w/include", "-o",
                                                                  "x.o", "-c", "/w/src/a.cpp"}),
             boost::test_tools::per_element());
  BOOST_TEST((*entries)[1].file == "/w/src/b.c");
  BOOST_TEST(shell_words("a 'b c' \"d\\\"e\" f\\ g") == (std::vector<std::string>{"a", "b c", "d\"e", "f g"}),
             boost::test_tools::per_element());
  folder.write("empty.json", "[]\n");
  auto none = read_compile_database(folder.path() / "empty.json");
  BOOST_REQUIRE(!none.has_value());
  BOOST_TEST(none.error().message == (folder.path() / "empty.json").string() + ": holds no compile command");
}

BOOST_AUTO_TEST_CASE(paths_the_copy_holds_point_into_it_and_the_others_stay_where_they_are) {
  TempFolder copy;
  copy.write("src/a.cpp", "int a;\n");
  copy.write("include/a.h", "\n");  // build/ (and build/generated) are not in the copy, as git ignores them
  CompileEntry entry{"/w/build",
                     "/w/src/a.cpp",
                     {"/usr/bin/g++", "-I../include", "-isystem", "/w/build/generated", "-iquote", "/w/include",
                      "-Wall", "-MD", "-MT", "a.o", "-MF", "a.d", "-o", "a.o", "-c", "../src/a.cpp"}};
  SyntaxCheck check = syntax_check_of(entry, TreeCopy{"/w", copy.path(), "/tmp/seen"});
  BOOST_TEST(check.directory == "/w/build");  // not in the copy: the workspace's, whose build folder setup made
  BOOST_TEST(check.written_directory == "/w/build");
  BOOST_TEST(check.argv == (std::vector<std::string>{"/usr/bin/g++", "-fsyntax-only", "-fdiagnostics-plain-output",
                                                     "-fno-diagnostics-color", "-fmax-errors=0", "-I/tmp/seen/include",
                                                     "-isystem", "/w/build/generated", "-iquote", "/tmp/seen/include",
                                                     "-Wall", "/tmp/seen/src/a.cpp"}),
             boost::test_tools::per_element());
  CompileEntry at_top{"/w", "/w/src/a.cpp", {"clang++", "-Iinclude", "src/a.cpp"}};
  SyntaxCheck top = syntax_check_of(at_top, TreeCopy{"/w", copy.path(), "/tmp/seen"});
  BOOST_TEST(top.directory == "/tmp/seen");
  BOOST_TEST(top.written_directory == copy.path());
  BOOST_TEST(top.argv == (std::vector<std::string>{"clang++", "-fsyntax-only", "-fno-caret-diagnostics",
                                                   "-fno-color-diagnostics", "-ferror-limit=0", "-I/tmp/seen/include",
                                                   "/tmp/seen/src/a.cpp"}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()
