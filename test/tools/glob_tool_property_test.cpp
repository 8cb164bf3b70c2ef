// The glob tool against ripgrep, whose dialect it speaks: the same generated globs over the same
// generated tree, the tool's listing compared with what `rg --files -g` lists.
#include "support/ripgrep_reference.h"
#include "tools/tools_fixture.h"

#include <iostream>
#include <sstream>

using namespace agent_run;
using namespace agent_run::test;

namespace {

/// The files the glob tool lists for `glob` over the whole workspace.
std::set<std::string> glob_tool_files(ToolsFixture& fixture, const std::string& glob) {
  ToolOutput output = fixture.call("glob", Json::object().set("pattern", glob).set("max_results", 100000));
  BOOST_TEST_REQUIRE(!output.is_error, glob << ": " << output.content);
  std::set<std::string> files;
  if (output.content.rfind("No files match", 0) == 0) return files;
  std::istringstream lines(output.content);
  for (std::string line; std::getline(lines, line);) files.insert(line);
  return files;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(glob_tool_properties)

BOOST_AUTO_TEST_CASE(the_glob_tool_lists_what_ripgrep_lists) {
  BOOST_REQUIRE_MESSAGE(std::filesystem::exists(k_ripgrep), "ripgrep is not installed (ci/setup.sh installs it)");
  std::size_t pairs = 0, mismatches = 0;
  for (std::uint32_t seed : {28u, 2801u}) {
    ToolsFixture fixture;
    const std::vector<std::string> paths = generated_tree_paths(seed, 120);
    make_tree(fixture.folder.path(), paths);
    std::vector<std::string> globs = generated_globs(seed, 150);
    for (std::size_t i = 0; i < 40; ++i) globs.push_back("/" + globs[i]);  // a leading '/' anchors
    for (const char* trailing : {"src/", "**/", "a/**/"}) globs.emplace_back(trailing);  // folders only: no file
    for (const std::string& glob : globs) {
      const std::set<std::string> expected = ripgrep_files(fixture.folder.path(), glob);
      const std::set<std::string> listed = glob_tool_files(fixture, glob);
      for (const std::string& path : paths) {
        ++pairs;
        if ((listed.count(path) > 0) != (expected.count(path) > 0)) {
          ++mismatches;
          BOOST_TEST_MESSAGE("mismatch (seed " << seed << "): pattern '" << glob << "' path '" << path
                                               << "': glob tool " << (listed.count(path) > 0) << ", rg "
                                               << (expected.count(path) > 0));
        }
      }
    }
  }
  std::cout << "glob tool vs rg --files -g: " << pairs << " pattern/path pairs, " << mismatches << " mismatches\n";
  BOOST_TEST(pairs >= 30000u);
  BOOST_TEST(mismatches == 0u);
}

BOOST_AUTO_TEST_CASE(a_double_star_inside_a_name_matches_at_any_depth_as_ripgrep_does) {
  ToolsFixture fixture;
  make_tree(fixture.folder.path(), {"top.c", "src/deep/f.c", "src/g.h"});
  BOOST_TEST(glob_tool_files(fixture, "**.c") == (std::set<std::string>{"src/deep/f.c", "top.c"}));
  BOOST_TEST(glob_tool_files(fixture, "**") == (std::set<std::string>{"src/deep/f.c", "src/g.h", "top.c"}));
  BOOST_TEST(ripgrep_files(fixture.folder.path(), "**.c") == glob_tool_files(fixture, "**.c"));
}

BOOST_AUTO_TEST_SUITE_END()
